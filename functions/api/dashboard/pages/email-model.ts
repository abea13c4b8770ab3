/**
 * What the emails pages compute from email records, pure: the search filter (recipient, subject,
 * status, tag), an email's timeline, whether its page should keep refreshing, and per-day activity for
 * the charts. Unit-tested in test/unit/dashboard/pages.test.ts.
 */
import { EMAIL_STATUSES } from '#shared/domain/emails/email';

/** The fields of the public email record these read. */
export interface EmailFacts {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  status: string;
  last_event: string;
  tags: { name: string; value: string }[];
  created_at: string;
  scheduled_at: string | null;
  cancelled_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  bounced_at: string | null;
  bounce_reason: string | null;
  bounce_type: string | null;
  opened_at?: string | null;
  clicked_at?: string | null;
}

export interface EmailFilter {
  recipient?: string;
  subject?: string;
  status?: string;
  /** `name` or `name=value`. */
  tag?: string;
}

export const FILTER_STATUSES = EMAIL_STATUSES;

export function hasFilter(filter: EmailFilter): boolean {
  return Boolean(filter.recipient || filter.subject || filter.status || filter.tag);
}

/** Recipient and subject: case-insensitive substrings (any of to, cc, bcc); status: exact; tag: its name, or name=value. */
export function matchesEmail(email: Pick<EmailFacts, 'to' | 'cc' | 'bcc' | 'subject' | 'status' | 'tags'>, filter: EmailFilter): boolean {
  if (filter.status && email.status !== filter.status) return false;
  if (filter.recipient) {
    const wanted = filter.recipient.toLowerCase();
    if (![...email.to, ...email.cc, ...email.bcc].some((address) => address.toLowerCase().includes(wanted))) return false;
  }
  if (filter.subject && !email.subject.toLowerCase().includes(filter.subject.toLowerCase())) return false;
  if (filter.tag) {
    const at = filter.tag.indexOf('=');
    const name = (at < 0 ? filter.tag : filter.tag.slice(0, at)).trim();
    const value = at < 0 ? null : filter.tag.slice(at + 1).trim();
    if (!email.tags.some((tag) => tag.name === name && (value === null || tag.value === value))) return false;
  }
  return true;
}

export interface TimelineEntry {
  /** The status word: accepted, scheduled, cancelled, sent, delivery_delayed, delivered, opened, clicked, bounced, failed, complained. */
  event: string;
  /** When, when the record keeps it. */
  at: string | null;
  detail: string | null;
}

/**
 * The email's life as its record tells it, in the order things happen: accepted, then scheduled or
 * cancelled, sent, delayed, delivered, opened, clicked, or bounced, failed, complained. Each milestone the
 * record reached is one entry (the record keeps the first time of each, and no time for a delay or a
 * complaint, which only the last event says).
 */
export function emailTimeline(email: EmailFacts): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ event: 'accepted', at: email.created_at, detail: null }];
  const add = (event: string, at: string | null, detail: string | null = null) => entries.push({ event, at, detail });
  if (email.scheduled_at) add('scheduled', null, `for ${email.scheduled_at}`);
  if (email.cancelled_at || email.status === 'cancelled') add('cancelled', email.cancelled_at);
  if (email.sent_at) add('sent', email.sent_at);
  if (email.last_event === 'delivery_delayed') add('delivery_delayed', null, 'the receiving server has not accepted it yet; retrying');
  if (email.delivered_at) add('delivered', email.delivered_at);
  if (email.opened_at) add('opened', email.opened_at);
  if (email.clicked_at) add('clicked', email.clicked_at);
  if (email.status === 'bounced')
    add('bounced', email.bounced_at, [email.bounce_type, email.bounce_reason].filter(Boolean).join(': ') || null);
  if (email.status === 'failed') add('failed', email.bounced_at, email.bounce_reason);
  if (email.last_event === 'complained') add('complained', null, 'the recipient marked it as spam');
  return entries;
}

/** How long an email's page keeps refreshing itself while its status may still change soon. */
export const REFRESH_WINDOW_MS = 10 * 60_000;

/** True while the email is on its way (queued or sent, accepted in the last 10 minutes): its page refreshes. */
export function isInFlight(email: Pick<EmailFacts, 'status' | 'created_at'>, now: Date): boolean {
  if (email.status !== 'queued' && email.status !== 'sent') return false;
  return now.getTime() - Date.parse(email.created_at) < REFRESH_WINDOW_MS;
}

export interface DayActivity {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  accepted: number;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  /** Shares of `sent` (0-1), null on a day with nothing sent. */
  delivery_rate: number | null;
  bounce_rate: number | null;
  complaint_rate: number | null;
}

export interface ActivitySample {
  days: DayActivity[];
  /** Emails the sample held. */
  emails: number;
  /** The sample stopped before the account's oldest email: the first day may be partial and older days are not shown. */
  truncated: boolean;
}

const dayOf = (iso: string) => iso.slice(0, 10);

/**
 * Per UTC day of acceptance (as the tenant stats count: "day D" is the emails accepted on D and what
 * happened to them since), over the last `maxDays` days (today included) and no further back than the
 * oldest email of the sample. Rates are shares of the emails sent that day.
 */
export function dailyActivity(
  emails: readonly Pick<EmailFacts, 'created_at' | 'sent_at' | 'delivered_at' | 'status' | 'last_event'>[],
  now: Date,
  maxDays: number,
  truncated: boolean,
): ActivitySample {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let first = today - (maxDays - 1) * 86_400_000;
  const oldest = emails.reduce<string | null>((min, email) => (min === null || email.created_at < min ? email.created_at : min), null);
  if (oldest !== null) first = Math.max(first, Date.parse(`${dayOf(oldest)}T00:00:00.000Z`));
  else first = today;
  const days = new Map<string, DayActivity>();
  for (let at = first; at <= today; at += 86_400_000) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.set(day, {
      day,
      accepted: 0,
      sent: 0,
      delivered: 0,
      bounced: 0,
      complained: 0,
      delivery_rate: null,
      bounce_rate: null,
      complaint_rate: null,
    });
  }
  for (const email of emails) {
    const entry = days.get(dayOf(email.created_at));
    if (!entry) continue;
    entry.accepted += 1;
    if (email.sent_at) entry.sent += 1;
    if (email.delivered_at) entry.delivered += 1;
    if (email.status === 'bounced') entry.bounced += 1;
    if (email.last_event === 'complained') entry.complained += 1;
  }
  const share = (n: number, of: number) => (of === 0 ? null : Math.min(1, n / of));
  for (const entry of days.values()) {
    entry.delivery_rate = share(entry.delivered, entry.sent);
    entry.bounce_rate = share(entry.bounced, entry.sent);
    entry.complaint_rate = share(entry.complained, entry.sent);
  }
  return { days: [...days.values()], emails: emails.length, truncated };
}
