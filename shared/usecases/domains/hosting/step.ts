/**
 * One step of a hosted host (a hosted MTA-STS policy's `mta-sts.<receiving subdomain>`: ../mta-sts/step.ts; to
 * come, a link domain's `links.<domain>`), taken by the domain-health task when it is due (PUT
 * and DELETE make it due now):
 *
 *   pending_certificate  delete a failed attempt's certificate, request the host's certificate (ACM; idempotent by a token of the domain and attempt),
 *                        read its validation record; issued -> create the custom domain name (mapped to the
 *                        kind's API) -> pending_dns, and check the records at once; failed -> failed
 *   pending_dns, active  (active, daily: the custom domain name still there, created again if not) the owner's
 *                        records (the kind's check) -> active, else pending_dns
 *   removing             custom domain name deleted, then the certificate (ACM refuses while API Gateway still
 *                        uses it: tried again a minute later), then the item
 *
 * Every save is conditional on the version read: a PUT or DELETE meanwhile wins and this step is dropped
 * (`superseded`); AWS calls are idempotent, so the next step repeats them safely. A failure of AWS or DNS
 * throws (the task logs it and the step stays due); a refusal for a quota fails the hosting with its message.
 */
import { createHash } from 'node:crypto';
import type { HostedApi, HostHosting, HostingStatus } from '#shared/domain/domains/hosting/host-hosting';
import type { Lookup } from '#shared/domain/domains/evaluate';
import { HostingQuotaError, type HostCertificate } from '#shared/ports/hosting';
import type { HostProvisioningDeps } from './deps';
import { nextStepAt } from './schedule';

export type HostingStepOutcome = 'advanced' | 'waiting' | 'removed' | 'superseded' | 'gone' | 'idle';

/** What the owner's records were found to be: the status they give, and the kind's findings. */
export type RecordsFound<T extends HostHosting> = Pick<T, 'target' | 'message'> & { status: 'active' | 'pending_dns' } & Partial<T>;

/** One kind of hosted host: its host name, its API, its store and its own records. */
export interface HostedKind<T extends HostHosting> {
  api: HostedApi;
  /** What the owner PUTs again to start over ("policy", "link domain"). */
  noun: string;
  hostOf(hosting: T): string;
  /** Writes `hosting` if the stored one (`previous`) is at `hosting.version - 1` (nextStepAt null: nothing due). */
  save(hosting: T, nextStepAt: Date | null, previous: T): Promise<'saved' | 'conflict'>;
  /** Deletes the item if still at its version. */
  remove(hosting: T): Promise<'deleted' | 'conflict'>;
  /** The owner's records looked up: `active` when the kind's records are published (`target` the host's CNAME value). */
  checkRecords(hosting: T, target: string): Promise<RecordsFound<T>>;
}

/**
 * ACM's IdempotencyToken (`\w{1,32}`): the same for the same domain, kind and attempt, another for a new attempt
 * (an MTA-STS policy's keeps the domain and attempt alone, as before link domains).
 */
export function certificateToken(hosting: Pick<HostHosting, 'domain_id' | 'attempt'>, api: HostedApi = 'mta-sts'): string {
  const seed = api === 'mta-sts' ? `${hosting.domain_id}:${hosting.attempt}` : `${hosting.domain_id}:${api}:${hosting.attempt}`;
  return createHash('sha256').update(seed).digest('hex').slice(0, 32);
}

/** The values of a lookup (none when not found); a failed lookup throws (the step stays due). */
export const lookupValues = (lookup: Lookup): string[] => {
  if (lookup.kind === 'error') throw new Error(`DNS lookup failed: ${lookup.message}`);
  return lookup.kind === 'found' ? lookup.values : [];
};

interface Step<T extends HostHosting> {
  deps: HostProvisioningDeps;
  kind: HostedKind<T>;
}

/** Takes the step of `hosting` (as just read or written). */
export async function hostStepFrom<T extends HostHosting>(
  deps: HostProvisioningDeps,
  kind: HostedKind<T>,
  hosting: T,
): Promise<HostingStepOutcome> {
  const step = { deps, kind };
  switch (hosting.status as HostingStatus) {
    case 'failed':
      return 'idle';
    case 'removing':
      return removalStep(step, hosting);
    case 'pending_certificate':
      return certificateStep(step, hosting);
    case 'pending_dns':
    case 'active':
      return dnsStep(step, hosting);
  }
}

async function save<T extends HostHosting>({ deps, kind }: Step<T>, hosting: T, changes: Partial<T>): Promise<T | null> {
  const now = deps.clock.now();
  const next = { ...hosting, ...changes, updated_at: now.toISOString(), version: hosting.version + 1 } as T;
  return (await kind.save(next, nextStepAt(next, now), hosting)) === 'saved' ? next : null;
}

const failed = <T extends HostHosting>(message: string): Partial<T> => ({ status: 'failed', message }) as Partial<T>;
const outcome = (saved: unknown, done: HostingStepOutcome): HostingStepOutcome => (saved ? done : 'superseded');

/** A failed attempt's certificate deleted: nothing uses it (ACM refusing still keeps it for the next step). null: superseded. */
async function dropStaleCertificate<T extends HostHosting>(step: Step<T>, hosting: T): Promise<T | null> {
  if (!hosting.stale_certificate_arn) return hosting;
  if ((await step.deps.hostCertificates.remove(hosting.stale_certificate_arn)) !== 'deleted') return hosting;
  return save(step, hosting, { stale_certificate_arn: null } as Partial<T>);
}

/** The attempt's certificate: the one it requested, else requested now (idempotent); a refusal for a quota fails the hosting. */
async function attemptCertificate<T extends HostHosting>(
  step: Step<T>,
  hosting: T,
  host: string,
): Promise<{ arn: string } | { outcome: HostingStepOutcome }> {
  if (hosting.certificate_arn) return { arn: hosting.certificate_arn };
  try {
    return { arn: (await step.deps.hostCertificates.request(host, certificateToken(hosting, step.kind.api))).arn };
  } catch (error) {
    if (!(error instanceof HostingQuotaError)) throw error;
    return { outcome: outcome(await save(step, hosting, failed(error.message)), 'advanced') };
  }
}

/** The attempt's certificate as ACM describes it. */
interface Described<T extends HostHosting> {
  hosting: T;
  host: string;
  arn: string;
  certificate: HostCertificate;
}

/** Still pending: the certificate, its validation record and the message saved when one changed; else only the next look moves on. */
async function certificatePending<T extends HostHosting>(
  step: Step<T>,
  { hosting, host, arn, certificate }: Described<T>,
): Promise<HostingStepOutcome> {
  const message = certificate.validationRecord
    ? `Publish the certificate_validation record: ACM issues the certificate of ${host} within minutes of seeing it (it keeps looking for 72 hours).`
    : `ACM is preparing the validation record of ${host}'s certificate (seconds).`;
  const changed =
    arn !== hosting.certificate_arn ||
    JSON.stringify(certificate.validationRecord) !== JSON.stringify(hosting.validation_record) ||
    message !== hosting.message;
  // Nothing new: only the next look is moved on (a save all the same, so the due time moves).
  const changes = changed ? { certificate_arn: arn, validation_record: certificate.validationRecord, message } : {};
  return outcome(await save(step, hosting, changes as Partial<T>), 'waiting');
}

/** Issued: the custom domain name created (mapped to the kind's API), the owner's records checked, then one save. */
async function certificateIssued<T extends HostHosting>(
  step: Step<T>,
  { hosting, host, arn, certificate }: Described<T>,
): Promise<HostingStepOutcome> {
  let target: string;
  try {
    target = (await step.deps.hostDomains.ensure(host, arn, step.kind.api)).target;
  } catch (error) {
    if (!(error instanceof HostingQuotaError)) throw error;
    return outcome(await save(step, hosting, { ...failed<T>(error.message), certificate_arn: arn } as Partial<T>), 'advanced');
  }
  // The owner's records are looked up before the one save: no reader sees the served host without them.
  const records = await step.kind.checkRecords(hosting, target);
  const issued = await save(step, hosting, {
    ...records,
    certificate_arn: arn,
    validation_record: certificate.validationRecord ?? hosting.validation_record,
  } as Partial<T>);
  return outcome(issued, 'advanced');
}

/** The certificate gone outside the service: a new attempt requests another. */
async function certificateDeleted<T extends HostHosting>(step: Step<T>, hosting: T, host: string): Promise<HostingStepOutcome> {
  const changes = {
    certificate_arn: null,
    validation_record: null,
    attempt: hosting.attempt + 1,
    message: `The certificate of ${host} was deleted outside the service; a new one is requested.`,
  };
  return outcome(await save(step, hosting, changes as Partial<T>), 'waiting');
}

async function certificateStep<T extends HostHosting>(step: Step<T>, stored: T): Promise<HostingStepOutcome> {
  const hosting = await dropStaleCertificate(step, stored);
  if (!hosting) return 'superseded';
  const host = step.kind.hostOf(hosting);
  const attempt = await attemptCertificate(step, hosting, host);
  if ('outcome' in attempt) return attempt.outcome;
  const { arn } = attempt;
  const certificate = await step.deps.hostCertificates.describe(arn);
  if (!certificate) return certificateDeleted(step, hosting, host);
  if (certificate.status === 'failed') {
    const message = `The certificate of ${host} could not be issued: ${certificate.failure}. Check that the certificate_validation record is published as given, then PUT the ${step.kind.noun} again to start over.`;
    const changes = {
      ...failed<T>(message),
      certificate_arn: arn,
      validation_record: certificate.validationRecord ?? hosting.validation_record,
    };
    return outcome(await save(step, hosting, changes as Partial<T>), 'advanced');
  }
  const described = { hosting, host, arn, certificate };
  return certificate.status === 'pending' ? certificatePending(step, described) : certificateIssued(step, described);
}

async function dnsStep<T extends HostHosting>(step: Step<T>, hosting: T): Promise<HostingStepOutcome> {
  // The custom domain name is looked at (and made again if gone) by the daily step of a live host only: the
  // 5-minute checks of a pending one are DNS lookups alone (API Gateway's management API has a low rate limit).
  const target =
    hosting.status === 'active' || !hosting.target
      ? (await step.deps.hostDomains.ensure(step.kind.hostOf(hosting), hosting.certificate_arn!, step.kind.api)).target
      : hosting.target;
  const records = await step.kind.checkRecords(hosting, target);
  if (!(await save(step, hosting, records as Partial<T>))) return 'superseded';
  return records.status === 'active' ? 'advanced' : 'waiting';
}

async function removalStep<T extends HostHosting>(step: Step<T>, hosting: T): Promise<HostingStepOutcome> {
  await step.deps.hostDomains.remove(step.kind.hostOf(hosting));
  if (hosting.certificate_arn && (await step.deps.hostCertificates.remove(hosting.certificate_arn)) === 'in_use') {
    // API Gateway lets go of the certificate shortly after the domain name is deleted.
    return outcome(await save(step, hosting, {}), 'waiting');
  }
  return (await step.kind.remove(hosting)) === 'deleted' ? 'removed' : 'superseded';
}
