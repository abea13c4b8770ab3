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
 * and the blocks (docs/deliverability.md, "Bounce categories": blocked_reputation and blocked_content do not
 * suppress the address, they raise these findings), at BLOCKS_MIN emails and BLOCKS_MIN_RATE of those sent:
 *
 *   refused for reputation  high   the receiver refuses the sender (its IPs, domain or a blocklist)
 *   refused for content     low    the receiver refused what some messages said
 *
 * Below REPUTATION_MIN_SENT emails the rates say little: no finding, the check `skipped`. Pure.
 */
import { finding, type HealthFinding } from './finding';

export const REPUTATION_WINDOW_DAYS = 7;
export const REPUTATION_MIN_SENT = 100;
export const REPUTATION_THRESHOLDS = { complaintHigh: 0.003, complaintLow: 0.001, bounceHigh: 0.05, bounceLow: 0.02 } as const;
export const BLOCKS_MIN = 5;
export const BLOCKS_MIN_RATE = 0.005;

export interface ReputationFigures {
  /** Whose emails: the tenant owning the domain (its external_id), or the account. */
  scope: { kind: 'tenant'; tenant: string } | { kind: 'account' };
  sent: number;
  bounced: number;
  complained: number;
  /** Emails receivers refused for the sender's reputation, and for their content (their bounce categories). */
  blocked_reputation: number;
  blocked_content: number;
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
    found.push(
      finding(
        'complaint_rate_high',
        `Complaint rate ${pct(complaintRate)} ${over}: Gmail and Yahoo filter or refuse senders that reach 0.3%. Send only to people who asked for your mail, make unsubscribing easy (one-click List-Unsubscribe), and stop mailing those who do not engage.`,
      ),
    );
  } else if (complaintRate >= REPUTATION_THRESHOLDS.complaintLow) {
    found.push(
      finding(
        'complaint_rate_elevated',
        `Complaint rate ${pct(complaintRate)} ${over}: Google asks senders to stay below 0.1%. Check which messages draw complaints and who gets them.`,
      ),
    );
  }
  if (bounceRate >= REPUTATION_THRESHOLDS.bounceHigh) {
    found.push(
      finding(
        'bounce_rate_high',
        `Bounce rate ${pct(bounceRate)} ${over}: SES reviews a sending account at 5% (this deployment's reputation guard pauses senders before that). Remove addresses that bounce, validate new ones (POST /validations), and never send to bought or old lists.`,
      ),
    );
  } else if (bounceRate >= REPUTATION_THRESHOLDS.bounceLow) {
    found.push(
      finding(
        'bounce_rate_elevated',
        `Bounce rate ${pct(bounceRate)} ${over}: SES recommends staying below 2%. Clean the list: suppressed addresses are skipped, validate new ones before sending.`,
      ),
    );
  }
  const blocks = (n: number) => n >= BLOCKS_MIN && n / figures.sent >= BLOCKS_MIN_RATE;
  if (blocks(figures.blocked_reputation)) {
    found.push(
      finding(
        'reputation_blocks',
        `${figures.blocked_reputation} of ${whose} accepted in the last ${REPUTATION_WINDOW_DAYS} days were refused by receivers for the sender's reputation (bounce category blocked_reputation; the addresses are not suppressed). Look the refusals up in the emails' bounce_reason (a blocklist, a poor domain reputation), check Google Postmaster Tools and the blocklists they name, and slow down to the receivers that refuse.`,
      ),
    );
  }
  if (blocks(figures.blocked_content)) {
    found.push(
      finding(
        'content_blocks',
        `${figures.blocked_content} of ${whose} accepted in the last ${REPUTATION_WINDOW_DAYS} days were refused for their content (bounce category blocked_content; the addresses are not suppressed). Look at those emails' bounce_reason: links to listed domains, attachments, or wording receivers filter.`,
      ),
    );
  }
  return found;
}
