/**
 * A raw MIME message (the SMTP relay's) made ready for the provider: the client's message as written,
 * plus the fields the service owes every message it sends: `X-Service-Message-Id`, and a `Message-ID`
 * and a `Date` when the client gave none (RFC 5322 requires both; the client's own are kept).
 */
import { joinHeaderBlock, splitHeaderBlock, type RawHeaderField } from './header-block';

export interface RawMessageAdditions {
  /** The email's id (msg_...), as X-Service-Message-Id. */
  emailId: string;
  /** The domain of the Message-ID made when the message has none (the From domain). */
  messageIdDomain: string;
  /** The Date made when the message has none (the email's acceptance time). */
  date: Date;
  /** Fields the service sets (managed unsubscribe's List-Unsubscribe*): the client's fields of these names are replaced. */
  fields?: Record<string, string>;
}

/** RFC 5322 date-time, e.g. `Tue, 01 Jan 2030 09:00:00 +0000`. */
export function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

export function completeRawMessage(raw: Buffer, add: RawMessageAdditions): Buffer {
  const { fields, rest, eol } = splitHeaderBlock(raw);
  const has = (name: string) => fields.some((field) => field.name === name);
  const field = (name: string, value: string): RawHeaderField => ({ name: name.toLowerCase(), text: `${name}: ${value}${eol}` });
  const added: RawHeaderField[] = [
    field('X-Service-Message-Id', add.emailId),
    ...Object.entries(add.fields ?? {}).map(([name, value]) => field(name, value)),
  ];
  const replaced = new Set(['x-service-message-id', ...Object.keys(add.fields ?? {}).map((name) => name.toLowerCase())]);
  if (!has('message-id')) added.push(field('Message-ID', `<${add.emailId}@${add.messageIdDomain}>`));
  if (!has('date')) added.push(field('Date', rfc5322Date(add.date)));
  // A message that was only a header and no line break would otherwise glue its last field to ours.
  const kept = fields.map((existing, i) =>
    i === fields.length - 1 && !existing.text.endsWith('\n') ? { ...existing, text: existing.text + eol } : existing,
  );
  const body = rest.length === 0 && kept.length > 0 ? Buffer.from(eol, 'latin1') : rest;
  return joinHeaderBlock([...added, ...kept.filter((existing) => !replaced.has(existing.name))], body);
}
