/**
 * A relayed message (raw MIME and its SMTP envelope) as the send core takes it: the ParsedSendRequest read from
 * the message's header, the options of its X-Service-* fields, and the message to deliver (as written,
 * minus the stripped fields: ../../domain/mime/transport-headers.ts). Pure but for parsing; nothing is stored here.
 *
 * The stored record matches what an API send of the same content records:
 * - from: the From field (exactly one mailbox; none, or several, is a 400 -> 550 5.6.0);
 * - to / cc: the To / Cc mailboxes (names kept) that are envelope recipients; mailboxes the envelope does
 *   not name (refused at RCPT TO, or only shown) are not recipients and are not recorded;
 * - bcc: the envelope recipients neither field names (Bcc fields are stripped from the message);
 * - reply_to, subject (decoded; '' when absent);
 * - headers: the other fields a sender adds (X-Campaign, In-Reply-To, ...), unfolded, RFC 2047 words
 *   decoded (an API send's `headers` hold the text its composer encodes); not the message's structure,
 *   trace fields, stripped fields or X-Service-*, nor a field an API send could not give as a header
 *   (List-Unsubscribe*, a value over 998 characters or with a line break: kept in the message); at most 50;
 * - attachments: listed from the message by the content step (shared/usecases/send/message-attachments.ts);
 * - tags, tenant, category, scheduled_at, unsubscribe and the idempotency key from the X-Service-* fields.
 *
 * A message Amazon SES would refuse (a field it allows once given twice, a file it does not send) is refused
 * here, naming the field or file (../../domain/mime/ses-content-check.ts).
 *
 * The idempotency fingerprint is the SHA-256 of the envelope and the message as received, so a client's
 * retry of the very same message replays its first answer, and anything else under the key is a conflict.
 */
import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser';
import { formatMailbox, parseMailbox, type Mailbox } from '../../domain/mail/address';
import { findHeaderProblems } from '../../domain/emails/headers';
import type { Idempotency } from '../../domain/emails/idempotency';
import type { ParsedSendRequest } from '../../domain/emails/send-request';
import { ValidationError } from '../../domain/errors';
import { decodeWords } from '../../domain/mime/encoded-words';
import { fieldName, fieldValue, splitHeaderBlock } from '../../domain/mime/header-block';
import { firstEightBitField } from './eight-bit-headers';
import { readServiceHeaders } from './service-headers';
import { sesContentRefusal } from '../../domain/mime/ses-content-check';
import { isStrippedHeader, stripTransportHeaders } from '../../domain/mime/transport-headers';

export interface Envelope {
  /** MAIL FROM's address. */
  mailFrom: string;
  /** RCPT TO's addresses, in order. */
  rcptTo: readonly string[];
}

export interface MessageToSend {
  request: ParsedSendRequest;
  idempotency?: Idempotency;
  /** The message to store and deliver. */
  raw: Buffer;
  /** Names of the fields removed from it. */
  stripped: string[];
}

/** Fields that are the message itself (kept in it, recorded in their own fields or not at all). */
const MESSAGE_FIELDS = new Set(['from', 'to', 'cc', 'reply-to', 'subject', 'date', 'message-id', 'mime-version']);
/** Trace fields: kept in the message, not part of what the sender asked for. */
const TRACE_FIELDS = new Set(['received', 'x-received', 'x-originating-ip']);
const MAX_RECORDED_HEADERS = 50;

const malformed = (field: string, message: string) =>
  new ValidationError(`The message's ${field} ${message}.`, { details: { fields: [{ field, message }] } });

/** Mailboxes of an address field, groups flattened. */
function mailboxesOf(field: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => object.value).flatMap((entry) => (entry.group ? entry.group : [entry]));
}

function toMailbox(entry: EmailAddress): Mailbox | null {
  const parsed = entry.address ? parseMailbox(entry.address) : null;
  if (!parsed) return null;
  const name = (entry.name ?? '').replace(/[\r\n]+/g, ' ').trim();
  return name ? { email: parsed.email, name } : { email: parsed.email };
}

export function messageFingerprint(received: Buffer, envelope: Envelope): string {
  const recipients = [...new Set(envelope.rcptTo.map((address) => address.toLowerCase()))].sort();
  return createHash('sha256')
    .update(`SMTP\n${envelope.mailFrom.toLowerCase()}\n${recipients.join(',')}\n`)
    .update(received)
    .digest('hex');
}

/** The header's one From field, refusing a missing or repeated From and raw 8-bit text (SES takes 7-bit headers only). */
function checkHeaderFields(fields: ReturnType<typeof splitHeaderBlock>['fields']): (typeof fields)[number] {
  const froms = fields.filter((field) => field.name === 'from');
  if (froms.length === 0)
    throw malformed('From', 'field is missing: a message names its sender in From (e.g. From: Acme <hello@example.com>)');
  if (froms.length > 1) throw malformed('From', 'field is given more than once');
  const eightBit = firstEightBitField(fields);
  if (eightBit) {
    throw malformed(
      fieldName(eightBit) || 'header',
      'field has raw 8-bit (non-ASCII) text: SES takes 7-bit headers only, so encode it as an RFC 2047 encoded-word (e.g. =?UTF-8?B?...?=)',
    );
  }
  return froms[0]!;
}

/** The recipients are the envelope's; the To and Cc fields give them their place and their names (the rest are Bcc). */
function placeRecipients(parsed: ParsedMail, envelope: Envelope): { to: string[]; cc: string[]; bcc: string[] } {
  const envelopeOrder = [...new Map(envelope.rcptTo.map((address) => [address.toLowerCase(), address])).values()];
  const inEnvelope = new Set(envelopeOrder.map((address) => address.toLowerCase()));
  const placed = new Set<string>();
  const placeFrom = (field: AddressObject | AddressObject[] | undefined): string[] => {
    const list: string[] = [];
    for (const entry of mailboxesOf(field)) {
      const mailbox = toMailbox(entry);
      const key = mailbox?.email.toLowerCase();
      if (!mailbox || !key || !inEnvelope.has(key) || placed.has(key)) continue;
      placed.add(key);
      list.push(formatMailbox(mailbox));
    }
    return list;
  };
  const to = placeFrom(parsed.to);
  const cc = placeFrom(parsed.cc);
  return { to, cc, bcc: envelopeOrder.filter((address) => !placed.has(address.toLowerCase())) };
}

function replyToOf(parsed: ParsedMail): string[] {
  return mailboxesOf(parsed.replyTo).map((entry) => {
    const mailbox = toMailbox(entry);
    if (!mailbox) throw malformed('Reply-To', `has an invalid address ("${entry.address ?? entry.name}")`);
    return formatMailbox(mailbox);
  });
}

/**
 * The message's other fields, as an API send's `headers` hold them (the composer encodes what the client's
 * library encoded), and only those an API send could give (../../domain/mime/transport-headers.ts keeps List-Unsubscribe in the message).
 */
function recordedHeaders(named: readonly { name: string; lower: string; value: string }[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, lower, value } of named) {
    if (!name || MESSAGE_FIELDS.has(lower) || TRACE_FIELDS.has(lower) || lower.startsWith('content-') || isStrippedHeader(lower)) continue;
    if (Object.keys(headers).length >= MAX_RECORDED_HEADERS || name in headers) continue;
    const decoded = decodeWords(value);
    if (findHeaderProblems({ [name]: decoded }).length === 0) headers[name] = decoded;
  }
  return headers;
}

export async function messageToSend(received: Buffer, envelope: Envelope): Promise<MessageToSend> {
  const { fields } = splitHeaderBlock(received);
  const fromField = checkHeaderFields(fields);
  // The header alone: quick, whatever the size of the body.
  const header = Buffer.from(`${fields.map((field) => field.text.replace(/\r?\n$/, '')).join('\r\n')}\r\n\r\n`, 'latin1');
  const parsed = await simpleParser(header, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  const fromBoxes = mailboxesOf(parsed.from);
  const from = fromBoxes.length === 1 ? toMailbox(fromBoxes[0]!) : null;
  if (!from) throw malformed('From', `must be exactly one valid address (got "${fieldValue(fromField)}")`);
  const { to, cc, bcc } = placeRecipients(parsed, envelope);
  const replyTo = replyToOf(parsed);
  const named = fields.map((field) => ({ name: fieldName(field), lower: field.name, value: fieldValue(field) }));
  const options = readServiceHeaders(named);
  const headers = recordedHeaders(named);

  const request: ParsedSendRequest = {
    from,
    to,
    subject: (parsed.subject ?? '').replace(/[\r\n]+/g, ' '),
    ...(cc.length ? { cc } : {}),
    ...(bcc.length ? { bcc } : {}),
    ...(replyTo.length ? { reply_to: replyTo } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(options.tags ? { tags: options.tags } : {}),
    ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
    ...(options.category ? { category: options.category } : {}),
    ...(options.scheduledAt ? { scheduled_at: options.scheduledAt } : {}),
    ...(options.unsubscribe !== undefined ? { unsubscribe: options.unsubscribe } : {}),
  };
  const { raw, stripped } = stripTransportHeaders(received);
  const refusedBySes = sesContentRefusal(raw);
  if (refusedBySes) throw refusedBySes;
  return {
    request,
    ...(options.idempotencyKey
      ? { idempotency: { key: options.idempotencyKey, fingerprint: messageFingerprint(received, envelope) } }
      : {}),
    raw,
    stripped,
  };
}
