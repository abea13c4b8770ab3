/**
 * MIME helpers: read the header section of a raw message without touching its bytes, decode the
 * common headers, and compose MIME for `Content.Simple`.
 */
import { simpleParser, type AddressObject, type EmailAddress } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import addressparser from 'nodemailer/lib/addressparser';
import type { MailHeader } from './events';

export interface Mailbox {
  name: string;
  address: string;
}

/** Byte offset where the header section ends (the blank line), or the message length without one. */
export function headerSectionEnd(raw: Buffer): number {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const candidates = [crlf, lf].filter((i) => i >= 0);
  return candidates.length > 0 ? Math.min(...candidates) : raw.length;
}

/**
 * The header fields of a raw message in their original order, unfolded (RFC 5322 section 2.2.3:
 * a line break followed by white space is removed, the white space kept), values not decoded.
 */
export function parseHeaderFields(raw: Buffer): MailHeader[] {
  const text = raw.subarray(0, headerSectionEnd(raw)).toString('utf8');
  const fields: MailHeader[] = [];
  let current: MailHeader | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.length === 0) continue;
    if ((line.startsWith(' ') || line.startsWith('\t')) && current) {
      current.value += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      current = undefined; // not a header field (e.g. an mbox "From " line): ignore it and its continuations
      continue;
    }
    current = { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).replace(/^[ \t]+/, '') };
    fields.push(current);
  }
  for (const f of fields) f.value = f.value.replace(/[ \t]+$/, '');
  return fields;
}

/** First value of a header (case-insensitive), or undefined. */
export function headerValue(headers: readonly MailHeader[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

export interface DecodedHeaders {
  subject: string;
  from: Mailbox[];
  replyTo: Mailbox[];
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
}

function flattenAddresses(field: AddressObject | AddressObject[] | undefined): Mailbox[] {
  if (!field) return [];
  const out: Mailbox[] = [];
  const visit = (list: EmailAddress[]): void => {
    for (const a of list) {
      if (a.group) visit(a.group);
      else if (a.address) out.push({ name: a.name ?? '', address: a.address });
    }
  };
  for (const obj of Array.isArray(field) ? field : [field]) visit(obj.value);
  return out;
}

/** Decodes subject and address headers (RFC 2047 words included) from the header section only. */
export async function decodeHeaders(raw: Buffer): Promise<DecodedHeaders> {
  const end = headerSectionEnd(raw);
  const headerOnly = Buffer.concat([raw.subarray(0, end), Buffer.from('\r\n\r\n')]);
  const parsed = await simpleParser(headerOnly, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
  });
  return {
    subject: parsed.subject ?? '',
    from: flattenAddresses(parsed.from),
    replyTo: flattenAddresses(parsed.replyTo),
    to: flattenAddresses(parsed.to),
    cc: flattenAddresses(parsed.cc),
    bcc: flattenAddresses(parsed.bcc),
  };
}

/** `Name <address>` (name quoted when needed) or the bare address. */
export function formatMailbox(m: Mailbox): string {
  if (!m.name) return m.address;
  const name = /^[\w !#$%&'*+\-/=?^`{|}~]*$/.test(m.name) ? m.name : `"${m.name.replace(/(["\\])/g, '\\$1')}"`;
  return `${name} <${m.address}>`;
}

/**
 * Bare addresses in an address-list string such as `Ann <ann@example.com>, bob@example.com`.
 * Groups are flattened.
 */
export function parseAddressList(value: string): string[] {
  return addressparser(value, { flatten: true })
    .map((a) => a.address.trim())
    .filter((a) => a.length > 0);
}

/** A `local@domain` address with no white space or angle brackets (SES answers "Illegal address" otherwise). */
export function isValidAddress(address: string): boolean {
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address);
}

export interface SimpleAttachment {
  content: Buffer;
  filename: string;
  contentType?: string;
  contentDisposition?: string;
  contentId?: string;
  contentDescription?: string;
  contentTransferEncoding?: string;
}

export interface SimpleMessage {
  from: string;
  to: string[];
  cc: string[];
  replyTo: string[];
  subject: string;
  text?: string;
  html?: string;
  headers: MailHeader[];
  attachments: SimpleAttachment[];
  /** Message-ID header value, e.g. `<id@email.amazonses.com>`. */
  messageId: string;
  date: Date;
}

/** MIME (CRLF line breaks) for `Content.Simple`; Bcc recipients stay out of the headers. */
export async function composeSimple(msg: SimpleMessage): Promise<Buffer> {
  const headers: Record<string, string[]> = {};
  for (const h of msg.headers) {
    headers[h.name] ??= [];
    headers[h.name]!.push(h.value);
  }
  const composer = new MailComposer({
    from: msg.from,
    to: msg.to.length > 0 ? msg.to : undefined,
    cc: msg.cc.length > 0 ? msg.cc : undefined,
    replyTo: msg.replyTo.length > 0 ? msg.replyTo : undefined,
    subject: msg.subject,
    text: msg.text,
    html: msg.html,
    headers,
    attachments: msg.attachments.map((a) => ({
      content: a.content,
      filename: a.filename,
      contentType: a.contentType,
      contentDisposition: a.contentDisposition,
      cid: a.contentId?.replace(/^<|>$/g, ''),
      contentTransferEncoding: a.contentTransferEncoding?.toLowerCase(),
      headers: a.contentDescription ? { 'Content-Description': a.contentDescription } : undefined,
    })),
    messageId: msg.messageId,
    date: msg.date,
    newline: 'win',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}
