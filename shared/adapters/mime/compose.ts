/** Builds the RFC 5322 message for a stored email with nodemailer's MIME composer. */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Email, EmailBody } from '../../domain/emails/email';
import { domainOf, parseMailbox } from '../../domain/mail/address';

/** An attachment ready to compose: with `cid` it is an inline part (HTML `<img src="cid:...">`). */
export interface MimeAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid?: string;
}

export async function composeMime(email: Email, body: EmailBody, attachments: MimeAttachment[] = []): Promise<Buffer> {
  const from = parseMailbox(email.from);
  const composer = new MailComposer({
    from: email.from,
    to: email.to,
    cc: email.cc.length ? email.cc : undefined,
    // Bcc recipients travel in the envelope only, never in the headers.
    replyTo: email.reply_to.length ? email.reply_to : undefined,
    subject: email.subject,
    html: body.html,
    text: body.text,
    messageId: `<${email.id}@${from ? domainOf(from.email) : 'localhost'}>`,
    date: new Date(email.created_at),
    headers: { ...email.headers, 'X-Service-Message-Id': email.id },
    // Parts with a cid go in multipart/related next to the HTML, inline; the others are attachments.
    attachments: attachments.length ? attachments.map((attachment) => toComposerAttachment(attachment, Boolean(body.html))) : undefined,
    // Attachments are bytes we hold: never let the composer read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
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
