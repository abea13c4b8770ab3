/**
 * Automatic pause: the service pauses a tenant whose own email is hurting the account's reputation, as
 * SES reviews and pauses accounts. Measured over the tenant's emails accepted today and yesterday (UTC),
 * from its day counters:
 *   - bounces over 5% of sent, once at least 200 were sent;
 *   - complaints over 0.1% of sent, once at least 1,000 were sent.
 * The minimum volumes keep a handful of early bounces from pausing a new tenant. Pure.
 */
import type { StatsCounts } from './stats';

export const AUTO_PAUSE = {
  bounceRate: 0.05,
  bounceMinSent: 200,
  complaintRate: 0.001,
  complaintMinSent: 1_000,
  /** Days of counters looked at: today and yesterday. */
  windowDays: 2,
} as const;

/** The reason to pause (the tenant's paused_reason), or null when the figures are fine. */
export function autoPauseReason(window: readonly Pick<StatsCounts, 'sent' | 'bounced' | 'complained'>[]): string | null {
  const sent = window.reduce((sum, day) => sum + day.sent, 0);
  const bounced = window.reduce((sum, day) => sum + day.bounced, 0);
  const complained = window.reduce((sum, day) => sum + day.complained, 0);
  const percent = (n: number) => `${Number(((n / sent) * 100).toFixed(2))}%`;
  if (sent >= AUTO_PAUSE.bounceMinSent && bounced / sent > AUTO_PAUSE.bounceRate) {
    return `Bounce rate ${percent(bounced)} over ${sent} emails sent in the last ${AUTO_PAUSE.windowDays} UTC days (above ${AUTO_PAUSE.bounceRate * 100}%).`;
  }
  if (sent >= AUTO_PAUSE.complaintMinSent && complained / sent > AUTO_PAUSE.complaintRate) {
    return `Complaint rate ${percent(complained)} over ${sent} emails sent in the last ${AUTO_PAUSE.windowDays} UTC days (above ${AUTO_PAUSE.complaintRate * 100}%).`;
  }
  return null;
}
