/**
 * When a hosted host's next step is due (a hosted MTA-STS policy, docs/deliverability.md "Hosted MTA-STS
 * policy"): the
 * certificate's validation is followed every minute (ACM validates within minutes of seeing the record, and
 * gives up after 72 hours), the owner's records every 5 minutes for 3 days then daily, a live host daily
 * (its records, and its custom domain name still there), a removal retried every minute. Pure.
 */
import type { HostHosting, HostingStatus } from '#shared/domain/domains/hosting/host-hosting';

const MINUTE = 60_000;
export const CERTIFICATE_STEP_MS = MINUTE;
export const DNS_STEP_MS = 5 * MINUTE;
export const DAILY_STEP_MS = 24 * 60 * MINUTE;
export const REMOVAL_STEP_MS = MINUTE;
/** After this long waiting for the owner's records, they are looked for daily. */
export const DNS_PATIENCE_MS = 72 * 60 * MINUTE;

export function nextStepAt(hosting: Pick<HostHosting, 'attempt_started_at'> & { status: HostingStatus }, now: Date): Date | null {
  const at = (ms: number) => new Date(now.getTime() + ms);
  switch (hosting.status) {
    case 'pending_certificate':
      return at(CERTIFICATE_STEP_MS);
    case 'pending_dns':
      return at(now.getTime() - Date.parse(hosting.attempt_started_at) < DNS_PATIENCE_MS ? DNS_STEP_MS : DAILY_STEP_MS);
    case 'active':
      return at(DAILY_STEP_MS);
    case 'removing':
      return at(REMOVAL_STEP_MS);
    case 'failed':
      return null;
  }
}
