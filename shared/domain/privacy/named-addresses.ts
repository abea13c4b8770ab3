/**
 * Which addresses a record names, for the address references an erasure finds it by (docs/erasure.md,
 * "How it finds an address's data"). Only the people a record is about: an email's recipients (never its
 * sender: the account's own address would make one partition of every send), a received email's sender
 * (never its recipients: the account's own inbound addresses), and the same fields in a webhook event's
 * data. Pure.
 */

/** Most addresses indexed for one record (an email has at most 50 recipients). */
export const MAX_NAMED_ADDRESSES = 100;

const ADDRESS = /[^\s<>"',;:()[\]]+@[^\s<>"',;:()[\]]+/g;

/** The bare, lower-cased addresses in some header-like values (`Name <a@b>`, `a@b`, lists of them). */
export function addressesIn(values: readonly unknown[]): string[] {
  const found = new Set<string>();
  for (const value of values) {
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== 'string') continue;
      for (const match of text.match(ADDRESS) ?? []) found.add(match.toLowerCase().replace(/\.+$/, ''));
    }
  }
  return [...found].slice(0, MAX_NAMED_ADDRESSES);
}

/** A sent email's recipients (To, Cc, Bcc). */
export function recipientsNamed(email: { to: readonly string[]; cc: readonly string[]; bcc: readonly string[] }): string[] {
  return addressesIn([email.to, email.cc, email.bcc]);
}

/** The fields of an event's data that name the people it is about. */
const PERSON_FIELDS = ['to', 'cc', 'bcc', 'email', 'suppressed', 'opted_out', 'recipients'] as const;

/**
 * The people a webhook delivery's event names (its payload: `{type, created_at, data}` as JSON): the
 * recipients of email.* events, the address of contact.* events, and the sender of email.received.
 */
export function addressesOfEventPayload(eventType: string, payload: string): string[] {
  let data: Record<string, unknown>;
  try {
    const parsed = JSON.parse(payload) as { data?: unknown };
    if (!parsed.data || typeof parsed.data !== 'object') return [];
    data = parsed.data as Record<string, unknown>;
  } catch {
    return [];
  }
  const fields: unknown[] = PERSON_FIELDS.map((field) => data[field]);
  if (eventType === 'email.received') fields.push(data.from);
  return addressesIn(fields);
}
