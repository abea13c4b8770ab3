/**
 * Which addresses a record names, for the address references an erasure finds it by (docs/erasure.md,
 * "How it finds an address's data"). The people a record is about, never the account's own addresses: a sent
 * email's To, Cc, Bcc and Reply-To (never its sender: the account's own address would make one partition
 * of every send); a received email's From, Reply-To, To, Cc and envelope sender (never the addresses it was
 * received at: the account's own inbound addresses); every address in a webhook event's data or an
 * automation run's event but those two; every address in an export's files. Pure.
 */

/** Most addresses indexed for one email or event (a sent email has at most 50 recipients; a received email's lists keep 100 entries each). */
export const MAX_NAMED_ADDRESSES = 1000;

/** What separates addresses in any text; an address is a run of anything else with an `@` inside it. */
const SEPARATORS = /[\s<>"',;:()[\]]+/;
const BARE = /^[^\s<>@]+@[^\s<>@"',;:()[\]]+$/;

/**
 * The addresses in a text: each run between separators with an `@` neither first nor last, trailing dots
 * dropped. Linear in the text's length (a regex of the form `[^sep]+@[^sep]+` tries every start of a long
 * run without `@` again: a 450 KB From held the inbound worker for minutes).
 */
function addressesInText(text: string): string[] {
  if (!text.includes('@')) return [];
  const found: string[] = [];
  for (const run of text.split(SEPARATORS)) {
    // An `@` with something before and after it (the first one past the run's start, not its last character).
    const at = run.indexOf('@', 1);
    if (at === -1 || at === run.length - 1) continue;
    let end = run.length;
    while (end > 0 && run.charCodeAt(end - 1) === 46 /* . */) end--;
    const address = run.slice(0, end);
    if (address.indexOf('@', 1) !== -1 && !address.endsWith('@')) found.push(address.toLowerCase());
  }
  return found;
}

/**
 * The bare, lower-cased addresses in some header-like values (`Name <a@b>`, `a@b`, lists of them, or any
 * text: JSON, CSV), at most `limit` of them (null: all).
 */
export function addressesIn(values: readonly unknown[], limit: number | null = MAX_NAMED_ADDRESSES): string[] {
  const found = new Set<string>();
  for (const value of values) {
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== 'string') continue;
      // A value that is one bare address is taken whole (a quoted local part: `"a,b"@x` is one address).
      if (BARE.test(text.trim())) found.add(text.trim().toLowerCase());
      for (const address of addressesInText(text)) found.add(address);
    }
  }
  const all = [...found];
  return limit === null ? all : all.slice(0, limit);
}

/** A sent email's recipients and its Reply-To: the people it names. */
export function recipientsNamed(email: {
  to: readonly string[];
  cc: readonly string[];
  bcc: readonly string[];
  reply_to?: readonly string[];
}): string[] {
  return addressesIn([email.to, email.cc, email.bcc, email.reply_to ?? []]);
}

/** The header fields of a received email an erasure finds it by, and the addresses it was received at. */
export interface ReceivedAddressFields {
  from: string;
  reply_to: readonly string[];
  to: readonly string[];
  cc: readonly string[];
  mail_from: string;
  /** The envelope recipients: the account's own inbound addresses, left out. */
  rcpt_to: readonly string[];
}

/** A received email's people: From, Reply-To, To, Cc and the envelope sender, but the addresses it was received at. */
export function receivedAddressesNamed(email: ReceivedAddressFields): string[] {
  const own = new Set(addressesIn([email.rcpt_to]));
  return addressesIn([email.from, email.reply_to, email.mail_from, email.to, email.cc]).filter((address) => !own.has(address));
}

/** Every string in a JSON-like value (nested objects and arrays), but under the keys in `skip`. */
function stringsIn(value: unknown, skip: ReadonlySet<string>, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const entry of value) stringsIn(entry, skip, out);
  else if (value && typeof value === 'object')
    for (const [key, entry] of Object.entries(value)) if (!skip.has(key)) stringsIn(entry, skip, out);
  return out;
}

/** Keys whose values look like addresses but name messages, not people. */
const MESSAGE_IDS = ['message_id', 'in_reply_to', 'references'];
/** email.* events: the sender is the account's own address. */
const SKIP_SENT = new Set(['from', ...MESSAGE_IDS]);
/** email.received: the addresses it was received at are the account's own. */
const SKIP_RECEIVED = new Set(['rcpt_to', ...MESSAGE_IDS]);

/**
 * The people a webhook delivery's event names (its payload: `{type, created_at, data}` as JSON): every
 * address in its data (recipients, `email` of contact.* events, tags and metadata the caller chose), but
 * the sender of email.* events; for email.received, every address but those it was received at.
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
  if (eventType === 'email.received') {
    const own = new Set(addressesIn([data.rcpt_to]));
    return addressesIn(stringsIn(data, SKIP_RECEIVED)).filter((address) => !own.has(address));
  }
  return addressesIn(stringsIn(data, eventType.startsWith('email.') ? SKIP_SENT : new Set(MESSAGE_IDS)));
}

/** Every address in some records (an export's part: each record's string values, however nested), all of them. */
export function addressesOfRecords(records: readonly unknown[]): string[] {
  return addressesIn(stringsIn(records, new Set()), null);
}

/** The people an automation run is about: every address in its event (its `email`, its data) and an `email:<address>` subject. */
export function addressesOfRun(run: { event: unknown; subject: string | null }): string[] {
  return addressesIn([...stringsIn(run.event, new Set()), run.subject?.startsWith('email:') ? run.subject.slice('email:'.length) : null]);
}
