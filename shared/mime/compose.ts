/** Builds the RFC 5322 message for a stored email with nodemailer's MIME composer. */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Email, EmailBody } from '../domain/emails/email';
import { domainOf, parseMailbox } from '../domain/emails/address';

export async function composeMime(email: Email, body: EmailBody): Promise<Buffer> {
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
  });
  return composer.compile().build();
}
