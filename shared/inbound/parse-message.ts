/**
 * Reading a received message with mailparser into what the record, the bodies and the attachments need.
 * It never throws: a message mailparser cannot read whole (broken MIME, a part's header over 1 MB, ...)
 * gives what its top header block says, decoded when possible, with `parse_error` saying what went wrong;
 * the raw message is kept either way. Attachments past MAX_STORED_ATTACHMENTS are counted, not kept
 * (they stay in the raw message).
 */
import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser';
import { MAX_STORED_ATTACHMENTS, type ReceivedHeaderFields } from '../domain/inbound/received-email';
import { fieldName, fieldValue, splitHeaderBlock } from '../mime/header-block';

export interface ParsedAttachment {
  filename: string | null;
  content_type: string;
  size: number;
  content_id: string | null;
  content_disposition: 'attachment' | 'inline';
  content: Buffer;
}

export interface ParsedInbound extends ReceivedHeaderFields {
  html: string | null;
  text: string | null;
  /** Every header field of the top header block, in order (values unfolded). */
  headers: { name: string; value: string }[];
  attachments: ParsedAttachment[];
  attachment_count: number;
  parse_error: string | null;
}

/**
 * MIME parts read before mailparser gives up on the message (its splitter's default is 1000, which made a
 * message of a few thousand tiny attachments lose its body and its count). Each part costs ~7 KB of
 * memory while parsing: 10,000 stay near 150 MB and ~1 s; past that the message is read as headers only.
 */
export const MAX_MIME_PARTS = 10_000;

const PARSER_OPTIONS = { skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: 5 * 1024 * 1024, maxChildNodes: MAX_MIME_PARTS } as const;

export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  try {
    return fromParsed(await simpleParser(raw, PARSER_OPTIONS), null);
  } catch (error) {
    return parseHeadersOnly(raw, (error as Error)?.message || String(error));
  }
}

/** The top header block alone, through mailparser again (decoded words, addresses), else as written. */
async function parseHeadersOnly(raw: Buffer, reason: string): Promise<ParsedInbound> {
  const { fields } = splitHeaderBlock(raw);
  const block = Buffer.from(`${fields.map((field) => `${fieldName(field)}: ${fieldValue(field)}`).join('\r\n')}\r\n\r\n`, 'utf8');
  try {
    return { ...fromParsed(await simpleParser(block, PARSER_OPTIONS), reason), text: null, html: null };
  } catch {
    const value = (name: string) => fields.find((field) => field.name === name) ?? null;
    const text = (name: string) => {
      const field = value(name);
      return field ? fieldValue(field) : null;
    };
    return {
      from: text('from') ?? '',
      to: text('to') ? [text('to')!] : [],
      cc: text('cc') ? [text('cc')!] : [],
      reply_to: text('reply-to') ? [text('reply-to')!] : [],
      subject: text('subject') ?? '',
      message_id: text('message-id'),
      in_reply_to: text('in-reply-to'),
      references: (text('references') ?? '').split(/\s+/).filter(Boolean),
      date: null,
      html: null,
      text: null,
      headers: fields.filter((field) => field.name !== '').map((field) => ({ name: fieldName(field), value: fieldValue(field) })),
      attachments: [],
      attachment_count: 0,
      parse_error: reason,
    };
  }
}

function fromParsed(mail: ParsedMail, parseError: string | null): ParsedInbound {
  const attachments = mail.attachments ?? [];
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : null;
  const references = Array.isArray(mail.references) ? mail.references : mail.references ? mail.references.split(/\s+/).filter(Boolean) : [];
  return {
    from: addresses(mail.from)[0] ?? '',
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    reply_to: addresses(mail.replyTo),
    subject: mail.subject ?? '',
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    references,
    date,
    html: typeof mail.html === 'string' ? mail.html : null,
    text: mail.text ?? null,
    headers: (mail.headerLines ?? []).map(({ line }) => {
      const colon = line.indexOf(':');
      return { name: colon >= 0 ? line.slice(0, colon).trim() : line, value: colon >= 0 ? line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim() : '' };
    }),
    attachments: attachments.slice(0, MAX_STORED_ATTACHMENTS).map((attachment) => ({
      filename: attachment.filename ?? null,
      content_type: attachment.contentType || 'application/octet-stream',
      size: attachment.size ?? attachment.content.length,
      content_id: attachment.contentId ?? attachment.cid ?? null,
      content_disposition: attachment.contentDisposition === 'inline' ? 'inline' : 'attachment',
      content: attachment.content,
    })),
    attachment_count: attachments.length,
    parse_error: parseError,
  };
}

/** `Name <addr>` (or `addr`) for each address, group members included. */
function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const flat = (list: EmailAddress[]): EmailAddress[] => list.flatMap((entry) => (entry.group ? flat(entry.group) : [entry]));
  return objects.flatMap((object) => flat(object.value ?? [])).flatMap((entry) => {
    if (!entry.address) return entry.name ? [entry.name] : [];
    return [entry.name ? `${entry.name} <${entry.address}>` : entry.address];
  });
}
