/**
 * The sender's reputation as the mailbox providers and SES judge it: the bounce and complaint rates of the
 * emails of the domain's sender (its tenant's, for a tenant's domain; else the account's) accepted in the
 * last REPUTATION_WINDOW_DAYS UTC days, from the stats worker's day counters (per email, by acceptance day).
 *
 *   complaint rate >= 0.3%  high   Google's and Yahoo's sender guidelines: never reach 0.3%
 *   complaint rate >= 0.1%  low    Google: keep it below 0.1%
 *   bounce rate    >= 5%    high   SES puts the sending account under review at 5% (its sending review FAQ)
 *   bounce rate    >= 2%    low    SES: keep it below 2% to stay clear of that
 *
 * Below REPUTATION_MIN_SENT emails the rates say little: no finding, the check `skipped`. Pure.
 */
import { finding, type HealthFinding } from './finding';

export const REPUTATION_WINDOW_DAYS = 7;
export const REPUTATION_MIN_SENT = 100;
export const REPUTATION_THRESHOLDS = { complaintHigh: 0.003, complaintLow: 0.001, bounceHigh: 0.05, bounceLow: 0.02 } as const;

export interface ReputationFigures {
  /** Whose emails: the tenant owning the domain (its external_id), or the account. */
  scope: { kind: 'tenant'; tenant: string } | { kind: 'account' };
  sent: number;
  bounced: number;
  complained: number;
}

const pct = (rate: number) => `${Number((rate * 100).toFixed(2))}%`;

/** The findings, or null when too few emails were sent to judge (the check is then `skipped`). */
export function evaluateReputationHealth(input: { domain: string; figures: ReputationFigures }): HealthFinding[] | null {
  const { figures } = input;
  if (figures.sent < REPUTATION_MIN_SENT) return null;
  const whose = figures.scope.kind === 'tenant' ? `tenant ${figures.scope.tenant}'s emails` : "the account's emails";
  const over = `over ${figures.sent} of ${whose} accepted in the last ${REPUTATION_WINDOW_DAYS} days`;
  const complaintRate = figures.complained / figures.sent;
  const bounceRate = figures.bounced / figures.sent;
  const found: HealthFinding[] = [];
  if (complaintRate >= REPUTATION_THRESHOLDS.complaintHigh) {
    found.push(finding('complaint_rate_high', `Complaint rate ${pct(complaintRate)} ${over}: Gmail and Yahoo filter or refuse senders that reach 0.3%. Send only to people who asked for your mail, make unsubscribing easy (one-click List-Unsubscribe), and stop mailing those who do not engage.`));
  } else if (complaintRate >= REPUTATION_THRESHOLDS.complaintLow) {
    found.push(finding('complaint_rate_elevated', `Complaint rate ${pct(complaintRate)} ${over}: Google asks senders to stay below 0.1%. Check which messages draw complaints and who gets them.`));
  }
  if (bounceRate >= REPUTATION_THRESHOLDS.bounceHigh) {
    found.push(finding('bounce_rate_high', `Bounce rate ${pct(bounceRate)} ${over}: SES reviews a sending account at 5% (this deployment's reputation guard pauses senders before that). Remove addresses that bounce, validate new ones (POST /validations), and never send to bought or old lists.`));
  } else if (bounceRate >= REPUTATION_THRESHOLDS.bounceLow) {
    found.push(finding('bounce_rate_elevated', `Bounce rate ${pct(bounceRate)} ${over}: SES recommends staying below 2%. Clean the list: suppressed addresses are skipped, validate new ones before sending.`));
  }
  return found;
}
