/**
 * One step of a hosted MTA-STS policy (docs/deliverability.md, "Hosted MTA-STS policy"), taken by the
 * domain-health task (./due-steps.ts) when it is due (PUT and DELETE make it due now):
 *
 *   pending_certificate  delete a failed attempt's certificate, request the host's certificate (ACM; idempotent by a token of the domain and attempt),
 *                        read its validation record; issued -> create the custom domain name (mapped to the
 *                        MTA-STS API) -> pending_dns, and check the records at once; failed -> failed
 *   pending_dns, active  (active, daily: the custom domain name still there, created again if not) the owner's records:
 *                        host CNAME to its target and the one `_mta-sts` TXT with this policy's id -> active,
 *                        else pending_dns
 *   removing             custom domain name deleted, then the certificate (ACM refuses while API Gateway still
 *                        uses it: tried again a minute later), then the item
 *
 * Every save is conditional on the version read: a PUT or DELETE meanwhile wins and this step is dropped
 * (`superseded`); AWS calls are idempotent, so the next step repeats them safely. A failure of AWS or DNS
 * throws (the task logs it and the step stays due); a refusal for a quota fails the hosting with its message.
 */
import { createHash } from 'node:crypto';
import { hostCnameFound, policyRecordFound, type StoredHosting } from '#shared/domain/domains/mta-sts/hosting';
import { policyHostOf, policyRecordName, tlsRptRecordName } from '#shared/domain/domains/mta-sts/policy';
import type { Lookup } from '#shared/domain/domains/evaluate';
import { HostingQuotaError, type HostCertificate } from '#shared/ports/hosting';
import type { MtaStsHostingDeps } from './deps';
import { nextStepAt } from './schedule';

export type HostingStepOutcome = 'advanced' | 'waiting' | 'removed' | 'superseded' | 'gone' | 'idle';

/** ACM's IdempotencyToken (`\w{1,32}`): the same for the same domain and attempt, another for a new attempt. */
export function certificateToken(hosting: Pick<StoredHosting, 'domain_id' | 'attempt'>): string {
  return createHash('sha256').update(`${hosting.domain_id}:${hosting.attempt}`).digest('hex').slice(0, 32);
}

const values = (lookup: Lookup): string[] => {
  if (lookup.kind === 'error') throw new Error(`DNS lookup failed: ${lookup.message}`);
  return lookup.kind === 'found' ? lookup.values : [];
};

/** Takes the step of the hosting of `policyDomain` as stored now. */
export async function takeHostingStep(deps: MtaStsHostingDeps, policyDomain: string): Promise<HostingStepOutcome> {
  const stored = await deps.mtaStsHosting.get(policyDomain);
  if (!stored) return 'gone';
  return stepFrom(deps, stored.hosting);
}

/** Takes the step of `hosting` (as just read or written). */
export async function stepFrom(deps: MtaStsHostingDeps, hosting: StoredHosting): Promise<HostingStepOutcome> {
  switch (hosting.status) {
    case 'failed':
      return 'idle';
    case 'removing':
      return removalStep(deps, hosting);
    case 'pending_certificate':
      return certificateStep(deps, hosting);
    case 'pending_dns':
    case 'active':
      return dnsStep(deps, hosting);
  }
}

async function save(deps: MtaStsHostingDeps, hosting: StoredHosting, changes: Partial<StoredHosting>): Promise<StoredHosting | null> {
  const now = deps.clock.now();
  const next: StoredHosting = { ...hosting, ...changes, updated_at: now.toISOString(), version: hosting.version + 1 };
  return (await deps.mtaStsHosting.save(next, nextStepAt(next, now))) === 'saved' ? next : null;
}

const failed = (message: string): Partial<StoredHosting> => ({ status: 'failed', message });

/** A failed attempt's certificate deleted: nothing uses it (ACM refusing still keeps it for the next step). null: superseded. */
async function dropStaleCertificate(deps: MtaStsHostingDeps, hosting: StoredHosting): Promise<StoredHosting | null> {
  if (!hosting.stale_certificate_arn) return hosting;
  if ((await deps.hostCertificates.remove(hosting.stale_certificate_arn)) !== 'deleted') return hosting;
  return save(deps, hosting, { stale_certificate_arn: null });
}

/** The attempt's certificate: the one it requested, else requested now (idempotent); a refusal for a quota fails the hosting. */
async function attemptCertificate(
  deps: MtaStsHostingDeps,
  hosting: StoredHosting,
  host: string,
): Promise<{ arn: string } | { outcome: HostingStepOutcome }> {
  if (hosting.certificate_arn) return { arn: hosting.certificate_arn };
  try {
    return { arn: (await deps.hostCertificates.request(host, certificateToken(hosting))).arn };
  } catch (error) {
    if (!(error instanceof HostingQuotaError)) throw error;
    return { outcome: (await save(deps, hosting, failed(error.message))) ? 'advanced' : 'superseded' };
  }
}

/** Still pending: the certificate, its validation record and the message saved when one changed; else only the next look moves on. */
async function certificatePending(
  deps: MtaStsHostingDeps,
  hosting: StoredHosting,
  host: string,
  arn: string,
  certificate: HostCertificate,
): Promise<HostingStepOutcome> {
  const message = certificate.validationRecord
    ? `Publish the certificate_validation record: ACM issues the certificate of ${host} within minutes of seeing it (it keeps looking for 72 hours).`
    : `ACM is preparing the validation record of ${host}'s certificate (seconds).`;
  const changed =
    arn !== hosting.certificate_arn ||
    JSON.stringify(certificate.validationRecord) !== JSON.stringify(hosting.validation_record) ||
    message !== hosting.message;
  if (!changed) {
    // Nothing new: only the next look is moved on (a save all the same, so the due time moves).
    return (await save(deps, hosting, {})) ? 'waiting' : 'superseded';
  }
  return (await save(deps, hosting, { certificate_arn: arn, validation_record: certificate.validationRecord, message }))
    ? 'waiting'
    : 'superseded';
}

/** Issued: the custom domain name created (mapped to the MTA-STS API), the owner's records checked, then one save. */
async function certificateIssued(
  deps: MtaStsHostingDeps,
  hosting: StoredHosting,
  host: string,
  arn: string,
  certificate: HostCertificate,
): Promise<HostingStepOutcome> {
  let target: string;
  try {
    target = (await deps.hostDomains.ensure(host, arn)).target;
  } catch (error) {
    if (!(error instanceof HostingQuotaError)) throw error;
    return (await save(deps, hosting, { ...failed(error.message), certificate_arn: arn })) ? 'advanced' : 'superseded';
  }
  // The owner's records are looked up before the one save: no reader sees the served policy without them.
  const records = await checkRecords(deps, hosting, target);
  const issued = await save(deps, hosting, {
    ...records,
    certificate_arn: arn,
    validation_record: certificate.validationRecord ?? hosting.validation_record,
  });
  return issued ? 'advanced' : 'superseded';
}

async function certificateStep(deps: MtaStsHostingDeps, stored: StoredHosting): Promise<HostingStepOutcome> {
  const hosting = await dropStaleCertificate(deps, stored);
  if (!hosting) return 'superseded';
  const host = policyHostOf(hosting.policy_domain);
  const attempt = await attemptCertificate(deps, hosting, host);
  if ('outcome' in attempt) return attempt.outcome;
  const { arn } = attempt;
  const certificate = await deps.hostCertificates.describe(arn);
  if (!certificate) {
    // Deleted outside the service: a new attempt requests another.
    const saved = await save(deps, hosting, {
      certificate_arn: null,
      validation_record: null,
      attempt: hosting.attempt + 1,
      message: `The certificate of ${host} was deleted outside the service; a new one is requested.`,
    });
    return saved ? 'waiting' : 'superseded';
  }
  if (certificate.status === 'failed') {
    const message = `The certificate of ${host} could not be issued: ${certificate.failure}. Check that the certificate_validation record is published as given, then PUT the policy again to start over.`;
    return (await save(deps, hosting, {
      ...failed(message),
      certificate_arn: arn,
      validation_record: certificate.validationRecord ?? hosting.validation_record,
    }))
      ? 'advanced'
      : 'superseded';
  }
  if (certificate.status === 'pending') return certificatePending(deps, hosting, host, arn, certificate);
  return certificateIssued(deps, hosting, host, arn, certificate);
}

async function dnsStep(deps: MtaStsHostingDeps, hosting: StoredHosting): Promise<HostingStepOutcome> {
  // The custom domain name is looked at (and made again if gone) by the daily step of a live policy only: the
  // 5-minute checks of a pending one are DNS lookups alone (API Gateway's management API has a low rate limit).
  const target =
    hosting.status === 'active' || !hosting.target
      ? (await deps.hostDomains.ensure(policyHostOf(hosting.policy_domain), hosting.certificate_arn!)).target
      : hosting.target;
  const records = await checkRecords(deps, hosting, target);
  if (!(await save(deps, hosting, records))) return 'superseded';
  return records.status === 'active' ? 'advanced' : 'waiting';
}

/** The owner's records looked up: `active` when the host's CNAME names `target` and one STSv1 record names this policy's id. */
async function checkRecords(
  deps: MtaStsHostingDeps,
  hosting: StoredHosting,
  target: string,
): Promise<Pick<StoredHosting, 'status' | 'target' | 'dns' | 'message'>> {
  const host = policyHostOf(hosting.policy_domain);
  const [hostCname, policyTxt, tlsRptTxt] = await Promise.all([
    deps.dns.cname(host),
    deps.dns.txt(policyRecordName(hosting.policy_domain)),
    deps.dns.txt(tlsRptRecordName(hosting.policy_domain)),
  ]);
  const dns = {
    checked_at: deps.clock.now().toISOString(),
    host_cname: values(hostCname),
    policy_txt: values(policyTxt),
    tls_rpt_txt: values(tlsRptTxt),
  };
  const withTarget = { ...hosting, target };
  const live = hostCnameFound(withTarget, dns.host_cname) && policyRecordFound(withTarget, dns.policy_txt);
  const message = live
    ? null
    : `The policy is served; publish the policy_host CNAME and the policy TXT record (exactly one v=STSv1 record at ${policyRecordName(hosting.policy_domain)}) so that senders find it.`;
  return { status: live ? 'active' : 'pending_dns', target, dns, message };
}

async function removalStep(deps: MtaStsHostingDeps, hosting: StoredHosting): Promise<HostingStepOutcome> {
  await deps.hostDomains.remove(policyHostOf(hosting.policy_domain));
  if (hosting.certificate_arn && (await deps.hostCertificates.remove(hosting.certificate_arn)) === 'in_use') {
    // API Gateway lets go of the certificate shortly after the domain name is deleted.
    return (await save(deps, hosting, {})) ? 'waiting' : 'superseded';
  }
  return (await deps.mtaStsHosting.remove(hosting)) === 'deleted' ? 'removed' : 'superseded';
}
