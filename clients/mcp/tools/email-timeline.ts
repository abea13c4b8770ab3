/**
 * An email's timeline for get_email: what happened to it and when, from the record of GET /emails/{id}
 * (created, scheduled, cancelled, sent, delivered, bounced timestamps and the last event), oldest first,
 * plus a one-line summary an agent can act on. The API has no per-email event log; the record's
 * timestamps are its events.
 */

export interface EmailRecord {
  id?: string;
  from?: string;
  to?: string[] | string;
  subject?: string | null;
  status?: string;
  last_event?: string | null;
  bounce_reason?: string | null;
  bounce_type?: string | null;
  created_at?: string | null;
  scheduled_at?: string | null;
  cancelled_at?: string | null;
  sent_at?: string | null;
  delivered_at?: string | null;
  bounced_at?: string | null;
  [field: string]: unknown;
}

export interface TimelineEntry {
  at: string;
  event: string;
  detail?: string;
}

const MOMENTS: { field: keyof EmailRecord; event: string }[] = [
  { field: 'created_at', event: 'accepted' },
  { field: 'scheduled_at', event: 'scheduled_for' },
  { field: 'cancelled_at', event: 'cancelled' },
  { field: 'sent_at', event: 'sent' },
  { field: 'delivered_at', event: 'delivered' },
  { field: 'bounced_at', event: 'bounced' },
];

export function emailTimeline(email: EmailRecord): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const { field, event } of MOMENTS) {
    const at = email[field];
    if (typeof at !== 'string' || at === '') continue;
    const detail =
      event === 'bounced'
        ? [email.bounce_type, email.bounce_reason].filter((part) => typeof part === 'string' && part !== '').join(': ')
        : '';
    entries.push({ at, event, ...(detail !== '' ? { detail } : {}) });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** "msg_... is delivered (last event delivered): from -> to, "subject"". */
export function emailSummary(email: EmailRecord): string {
  const to = Array.isArray(email.to) ? email.to.join(', ') : (email.to ?? '');
  const last = email.last_event && email.last_event !== email.status ? ` (last event: ${email.last_event})` : '';
  const bounce = email.bounce_reason ? ` Bounce: ${email.bounce_reason}.` : '';
  return `Email ${email.id} is ${email.status}${last}: ${email.from ?? '?'} -> ${to}, "${email.subject ?? ''}".${bounce}`;
}
