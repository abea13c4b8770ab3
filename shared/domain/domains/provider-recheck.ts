/**
 * When the reconciler asks the mail provider again about a domain whose DNS records all checked out
 * while the provider (SES) was still verifying it (`provider.status: pending`; docs/domains.md,
 * "Registration with the mail provider (SES)"). Pure: the domains store writes the first due time with
 * the check (shared/adapters/store/domains/checks.ts recordCheck), the reconciler the next ones
 * (shared/usecases/domains/reconcile-provider-pending.ts).
 *
 * SES checks the DKIM record periodically and verifies most identities within minutes; it gives up after
 * 72 hours ("If Amazon SES fails to detect the DKIM records within 72 hours, the status changes to
 * FAILED": https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim-bring-your-own.html).
 * So: every `providerRecheckMs` (2 min) in the first hour after the first pending check, then every
 * `providerRecheckLateMs` (15 min), and not after 72 hours.
 */
import type { RecoveryBounds } from '../reliability/bounds';

/** How long after the first pending check the domain is asked about at the short interval. */
export const PROVIDER_RECHECK_EARLY_PHASE_MS = 60 * 60_000;

/** SES's window: an identity not verified within 72 hours of its verification starting is FAILED. */
export const PROVIDER_VERIFICATION_WINDOW_MS = 72 * 60 * 60_000;

/**
 * The next time to ask the provider about a domain pending since `pendingSince` (epoch ms), asked at
 * `now`; null once the provider's window is over (the domain leaves the due index).
 */
export function nextProviderRecheckAt(
  bounds: Pick<RecoveryBounds, 'providerRecheckMs' | 'providerRecheckLateMs'>,
  pendingSince: number,
  now: number,
): number | null {
  const waited = now - pendingSince;
  if (waited >= PROVIDER_VERIFICATION_WINDOW_MS) return null;
  const next = now + (waited < PROVIDER_RECHECK_EARLY_PHASE_MS ? bounds.providerRecheckMs : bounds.providerRecheckLateMs);
  // The last ask falls at the window's end, not up to an interval past it.
  return Math.min(next, pendingSince + PROVIDER_VERIFICATION_WINDOW_MS);
}
