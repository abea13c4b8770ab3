/**
 * mailparser's reading of a received message (its `ParsedMail`) as the record, the bodies and the
 * attachments keep it. mailparser's values are kept as it gives them, but for two things:
 *
 * - `date`: null when the Date field is absent or unreadable (mailparser gives the time of parsing, which
 *   the message never said);
 * - `headers`: the top block's fields in order, from mailparser's header lines, each value unfolded and
 *   trimmed, its 8-bit bytes read as UTF-8 (RFC 6532; mailparser's lines have one character per byte).
 */
import type { AddressObject, EmailAddress, ParsedMail } from 'mailparser';
import type { ParsedInbound } from '../../domain/inbound/parsed-message';
import { MAX_STORED_ATTACHMENTS } from '../../domain/inbound/received-email';

export function fromParsedMail(mail: ParsedMail): ParsedInbound {
  const attachments = mail.attachments ?? [];
  const headers = headerList(mail);
  return {
    from: addresses(mail.from)[0] ?? '',
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    reply_to: addresses(mail.replyTo),
    subject: mail.subject ?? '',
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    references: Array.isArray(mail.references) ? mail.references : mail.references ? mail.references.split(/\s+/).filter(Boolean) : [],
    date: writtenDate(headers) === null ? null : (mail.date?.toISOString() ?? null),
    html: typeof mail.html === 'string' ? mail.html : null,
    text: mail.text ?? null,
    headers,
    attachments: attachments.slice(0, MAX_STORED_ATTACHMENTS).map((attachment) => ({
      filename: attachment.filename ?? null,
      content_type: attachment.contentType || 'application/octet-stream',
      size: attachment.size ?? attachment.content.length,
      content_id: attachment.contentId ?? null,
      content_disposition: attachment.contentDisposition === 'inline' ? 'inline' : 'attachment',
      content: attachment.content,
    })),
    attachment_count: attachments.length,
    parse_error: null,
  };
}

/** The top block's fields from mailparser's header lines (a line without a colon: its text as the name). */
function headerList(mail: ParsedMail): ParsedInbound['headers'] {
  const utf8 = (binary: string) => Buffer.from(binary, 'latin1').toString('utf8');
  return (mail.headerLines ?? []).map(({ line }) => {
    const colon = line.indexOf(':');
    if (colon < 0) return { name: utf8(line), value: '' };
    return {
      name: line.slice(0, colon).trim(),
      value: utf8(
        line
          .slice(colon + 1)
          .replace(/\r?\n[ \t]+/g, ' ')
          .trim(),
      ),
    };
  });
}

/** The last Date field's value when it is a readable date (the field mailparser reads), else null. */
function writtenDate(headers: ParsedInbound['headers']): string | null {
  const value = headers.filter((field) => field.name.toLowerCase() === 'date').pop()?.value;
  return value && !Number.isNaN(new Date(value).getTime()) ? value : null;
}

/** `Name <addr>` (or `addr`) for each address, group members included. */
function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const flat = (list: EmailAddress[]): EmailAddress[] => list.flatMap((entry) => (entry.group ? flat(entry.group) : [entry]));
  return objects
    .flatMap((object) => flat(object.value ?? []))
    .flatMap((entry) => {
      if (!entry.address) return entry.name ? [entry.name] : [];
      return [entry.name ? `${entry.name} <${entry.address}>` : entry.address];
    });
}
