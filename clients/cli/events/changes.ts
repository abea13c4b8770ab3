/**
 * What `events tail` prints: the emails (and webhook deliveries) whose state changed since the last poll.
 * Pure: the poller hands in each page it read and the state it knows; the first sight of an item counts
 * as a change (from nothing), so the first pass shows where everything stands.
 */

export interface EmailState {
  id: string;
  status: string;
  last_event: string | null;
  to: string[];
  subject: string;
  created_at: string;
}

export interface DeliveryState {
  id: string;
  event_type: string;
  status: string;
  attempts: unknown[];
  created_at: string;
}

export interface Change<T> {
  kind: 'email' | 'delivery';
  item: T;
  /** What was known before (null: first seen). */
  previous: { status: string; detail: string | null } | null;
}

/** A summary of what makes an item "changed": its status and, for an email, last_event; for a delivery, its attempts. */
const emailKey = (email: EmailState) => ({ status: email.status, detail: email.last_event });
const deliveryKey = (delivery: DeliveryState) => ({ status: delivery.status, detail: String(delivery.attempts.length) });

function changesOf<T extends { id: string }>(
  kind: Change<T>['kind'],
  known: Map<string, { status: string; detail: string | null }>,
  page: T[],
  keyOf: (item: T) => { status: string; detail: string | null },
): Change<T>[] {
  const changes: Change<T>[] = [];
  // Pages are newest first; changes are printed oldest first, as a log reads.
  for (const item of [...page].reverse()) {
    const now = keyOf(item);
    const before = known.get(item.id) ?? null;
    if (before && before.status === now.status && before.detail === now.detail) continue;
    known.set(item.id, now);
    changes.push({ kind, item, previous: before });
  }
  return changes;
}

export const emailChanges = (known: Map<string, { status: string; detail: string | null }>, page: EmailState[]) =>
  changesOf('email', known, page, emailKey);
export const deliveryChanges = (known: Map<string, { status: string; detail: string | null }>, page: DeliveryState[]) =>
  changesOf('delivery', known, page, deliveryKey);

/** One line of text for a change. */
export function describeChange(change: Change<EmailState> | Change<DeliveryState>): string {
  if (change.kind === 'email') {
    const email = change.item as EmailState;
    const moved =
      change.previous && change.previous.status !== email.status ? `${change.previous.status} -> ${email.status}` : email.status;
    const event = email.last_event && email.last_event !== email.status ? ` (${email.last_event})` : '';
    return `email ${email.id} ${moved}${event}  to ${email.to.join(', ')}  "${email.subject}"`;
  }
  const delivery = change.item as DeliveryState;
  const moved =
    change.previous && change.previous.status !== delivery.status ? `${change.previous.status} -> ${delivery.status}` : delivery.status;
  return `delivery ${delivery.id} ${delivery.event_type} ${moved}  attempts ${delivery.attempts.length}`;
}
