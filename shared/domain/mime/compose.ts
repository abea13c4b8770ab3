/**
 * Builds the RFC 5322 message for a stored email with nodemailer's MIME composer, as every composed
 * message looks (docs/deliverability.md, "What every message looks like"): CRLF line endings only (the
 * bodies' own line breaks, whatever they were, become CRLF), an HTML fragment wrapped in a document
 * (./html-document.ts), and a text/plain alternative derived from the HTML when the email has no text
 * (shared/domain/mail/html-text.ts).
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Email, EmailBody } from '../emails/email';
import { domainOf, parseMailbox } from '../mail/address';
import { htmlToText } from '../mail/html-text';
import { asHtmlDocument } from './html-document';
import { crlfLineEndings } from './line-endings';

/** An attachment ready to compose: with `cid` it is an inline part (HTML `<img src="cid:...">`). */
export interface MimeAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid?: string;
}

/** The bodies as sent: line breaks as CRLF, the HTML a document, a text part always. */
export function bodiesToCompose(body: EmailBody): { html?: string; text?: string } {
  const html = body.html === undefined || body.html === '' ? undefined : asHtmlDocument(crlfLineEndings(body.html));
  const given = body.text === undefined ? undefined : crlfLineEndings(body.text);
  const text = given !== undefined && given.trim() !== '' ? given : html !== undefined ? crlfLineEndings(htmlToText(html)) : given;
  return { ...(html === undefined ? {} : { html }), ...(text === undefined ? {} : { text }) };
}

export async function composeMime(email: Email, body: EmailBody, attachments: MimeAttachment[] = []): Promise<Buffer> {
  const from = parseMailbox(email.from);
  const { html, text } = bodiesToCompose(body);
  const composer = new MailComposer({
    from: email.from,
    to: email.to,
    cc: email.cc.length ? email.cc : undefined,
    // Bcc recipients travel in the envelope only, never in the headers.
    replyTo: email.reply_to.length ? email.reply_to : undefined,
    subject: email.subject,
    html,
    text,
    messageId: `<${email.id}@${from ? domainOf(from.email) : 'localhost'}>`,
    date: new Date(email.created_at),
    headers: { ...email.headers, 'X-Service-Message-Id': email.id },
    // Parts with a cid go in multipart/related next to the HTML, inline; the others are attachments.
    attachments: attachments.length ? attachments.map((attachment) => toComposerAttachment(attachment, html !== undefined)) : undefined,
    // Attachments are bytes we hold: never let the composer read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
    // Every line break of the message CRLF (RFC 5322 section 2.3), base64 and quoted-printable lines included.
    newline: '\r\n',
  });
  return composer.compile().build();
}

function toComposerAttachment(attachment: MimeAttachment, hasHtml: boolean) {
  return {
    filename: attachment.filename,
    content: attachment.content,
    contentType: attachment.contentType,
    // Always base64, message/* included: arbitrary bytes must survive 7-bit transport and line limits.
    contentTransferEncoding: 'base64' as const,
    ...(attachment.cid === undefined ? {} : { cid: attachment.cid }),
    contentDisposition: attachment.cid !== undefined && hasHtml ? ('inline' as const) : ('attachment' as const),
  };
}
