/**
 * One step of a hosted MTA-STS policy (docs/deliverability.md, "Hosted MTA-STS policy"), taken by the
 * domain-health task (./due-steps.ts): the steps of a hosted host (../hosting/step.ts) for the policy host
 * `mta-sts.<policy domain>`, mapped to the MTA-STS API, live once the owner publishes the host's CNAME to its
 * target and the one `_mta-sts` TXT with this policy's id.
 */
import { hostCnameFound, policyRecordFound, type StoredHosting } from '#shared/domain/domains/mta-sts/hosting';
import { policyHostOf, policyRecordName, tlsRptRecordName } from '#shared/domain/domains/mta-sts/policy';
import { hostStepFrom, lookupValues, type HostedKind, type HostingStepOutcome, type RecordsFound } from '../hosting/step';
import type { MtaStsHostingDeps } from './deps';

export { certificateToken, type HostingStepOutcome } from '../hosting/step';

/** Takes the step of the hosting of `policyDomain` as stored now. */
export async function takeHostingStep(deps: MtaStsHostingDeps, policyDomain: string): Promise<HostingStepOutcome> {
  const stored = await deps.mtaStsHosting.get(policyDomain);
  if (!stored) return 'gone';
  return stepFrom(deps, stored.hosting);
}

/** Takes the step of `hosting` (as just read or written). */
export function stepFrom(deps: MtaStsHostingDeps, hosting: StoredHosting): Promise<HostingStepOutcome> {
  return hostStepFrom(deps, mtaStsKind(deps), hosting);
}

function mtaStsKind(deps: MtaStsHostingDeps): HostedKind<StoredHosting> {
  return {
    api: 'mta-sts',
    noun: 'policy',
    hostOf: (hosting) => policyHostOf(hosting.policy_domain),
    save: (hosting, nextStepAt) => deps.mtaStsHosting.save(hosting, nextStepAt),
    remove: (hosting) => deps.mtaStsHosting.remove(hosting),
    checkRecords: (hosting, target) => checkRecords(deps, hosting, target),
  };
}

/** The owner's records looked up: `active` when the host's CNAME names `target` and one STSv1 record names this policy's id. */
async function checkRecords(deps: MtaStsHostingDeps, hosting: StoredHosting, target: string): Promise<RecordsFound<StoredHosting>> {
  const host = policyHostOf(hosting.policy_domain);
  const [hostCname, policyTxt, tlsRptTxt] = await Promise.all([
    deps.dns.cname(host),
    deps.dns.txt(policyRecordName(hosting.policy_domain)),
    deps.dns.txt(tlsRptRecordName(hosting.policy_domain)),
  ]);
  const dns = {
    checked_at: deps.clock.now().toISOString(),
    host_cname: lookupValues(hostCname),
    policy_txt: lookupValues(policyTxt),
    tls_rpt_txt: lookupValues(tlsRptTxt),
  };
  const withTarget = { ...hosting, target };
  const live = hostCnameFound(withTarget, dns.host_cname) && policyRecordFound(withTarget, dns.policy_txt);
  const message = live
    ? null
    : `The policy is served; publish the policy_host CNAME and the policy TXT record (exactly one v=STSv1 record at ${policyRecordName(hosting.policy_domain)}) so that senders find it.`;
  return { status: live ? 'active' : 'pending_dns', target, dns, message };
}
