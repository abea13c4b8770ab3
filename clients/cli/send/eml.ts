/**
 * An .eml file (RFC 5322, as a mail client saves it) turned into a POST /emails body with mailparser:
 * From, To, Cc, Bcc, Reply-To, Subject, the text and HTML parts as written (no text made up from the
 * HTML or the other way round), and every attachment (inline ones with their Content-ID). Other headers
 * are not carried: most of them (Date, Message-ID, Received, DKIM-Signature, ...) are the ones the API
 * refuses, and the service writes its own.
 */
import type { AddressObject, EmailAddress } from 'mailparser';
import type { AttachmentBody, SendBody } from './flags';

/** `Name <address>` (or the bare address), groups flattened to their members. */
function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const flatten = (list: EmailAddress[]): EmailAddress[] => list.flatMap((entry) => (entry.group ? flatten(entry.group) : [entry]));
  return objects
    .flatMap((object) => flatten(object.value))
    .filter((entry) => entry.address)
    .map((entry) => {
      const name = entry.name.replace(/["<>\r\n]/g, '').trim();
      return name ? `${name} <${entry.address}>` : entry.address!;
    });
}

export async function sendBodyOfEml(source: Buffer | string): Promise<SendBody> {
  // Loaded here, for `send --eml` only: mailparser and what it loads (libmime, iconv tables, linkify-it) were
  // about 100 ms of every other command's start.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const body: SendBody = {};
  const [from] = addressesOf(mail.from);
  if (from) body.from = from;
  const fields: [keyof SendBody & ('to' | 'cc' | 'bcc' | 'reply_to'), AddressObject | AddressObject[] | undefined][] = [
    ['to', mail.to],
    ['cc', mail.cc],
    ['bcc', mail.bcc],
    ['reply_to', mail.replyTo],
  ];
  for (const [key, field] of fields) {
    const list = addressesOf(field);
    if (list.length) body[key] = list;
  }
  if (mail.subject) body.subject = mail.subject;
  if (typeof mail.text === 'string' && mail.text !== '') body.text = mail.text;
  if (typeof mail.html === 'string' && mail.html !== '') body.html = mail.html;
  const attachments: AttachmentBody[] = mail.attachments.map((attachment, index) => {
    const item: AttachmentBody = {
      filename: attachment.filename || `attachment-${index + 1}`,
      data: attachment.content.toString('base64'),
      content_type: attachment.contentType.split(';')[0]!.trim(),
    };
    const cid = attachment.cid ?? attachment.contentId?.replace(/^<|>$/g, '');
    if (cid && attachment.contentDisposition === 'inline') item.content_id = cid;
    return item;
  });
  if (attachments.length) body.attachments = attachments;
  return body;
}
