/**
 * Parity of the relay's record with the API's, without a stack: an API send request is composed by the
 * service's own composer (shared/domain/mime/compose.ts, nodemailer's, what an SMTP client such as nodemailer
 * writes), and the relay's reading of that message (shared/doors/smtp/message-to-send.ts for the header,
 * shared/usecases/send/message-attachments.ts for the attachments) must give what the API send records.
 */
import { formatMailbox } from '#shared/domain/mail/address';
import type { AttachmentRef, InlineAttachment } from '#shared/domain/emails/attachments';
import type { Email } from '#shared/domain/emails/email';
import { sendRequestSchema, type ParsedSendRequest } from '#shared/domain/emails/send-request';
import { composeMime } from '#shared/domain/mime/compose';
import { messageToSend } from '#shared/doors/smtp/message-to-send';
import { attachmentsOfMessage, MAX_LISTED_ATTACHMENTS } from '#shared/usecases/send/message-attachments';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The record's fields both doors fill from a send request (the send core's newEmail), and the attachments' metadata. */
function recordOf(request: ParsedSendRequest, attachments: AttachmentRef[]) {
  return {
    from: formatMailbox(request.from!),
    to: request.to,
    cc: request.cc ?? [],
    bcc: request.bcc ?? [],
    reply_to: request.reply_to ?? [],
    subject: request.subject,
    headers: request.headers ?? {},
    attachments,
  };
}

/** The API's record of a request, and the message the service composes from it (as the send worker does). */
async function apiSend(body: Record<string, unknown>) {
  const request = sendRequestSchema.parse(body);
  const attachments = (request.attachments ?? []) as InlineAttachment[];
  const record = recordOf(
    request,
    attachments.map(({ filename, content_type, size, content_id }) => ({
      filename,
      content_type,
      size,
      ...(content_id ? { content_id } : {}),
    })),
  );
  const composed = await composeMime(
    { ...record, id: 'msg_01J0000000000000000000000', created_at: '2030-01-01T09:00:00.000Z' } as unknown as Email,
    { html: request.html, text: request.text },
    attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.content_type,
      content: Buffer.from(attachment.data, 'base64'),
      ...(attachment.content_id ? { cid: attachment.content_id } : {}),
    })),
  );
  return {
    record,
    composed,
    recipients: [...record.to, ...record.cc, ...record.bcc].map((address) => /<([^>]+)>$/.exec(address)?.[1] ?? address),
  };
}

/** The relay's record of a message (the fields messageToSend and the content step give). */
async function relayRecord(raw: Buffer, rcptTo: string[]) {
  const { request } = await messageToSend(raw, { mailFrom: 'bounce@acme.test', rcptTo });
  return recordOf(request, attachmentsOfMessage(raw));
}

describe('the record of a message composed from an API send, as the relay reads it', () => {
  it('is the API send record: addresses with names, subject, headers, inline and regular attachments', async () => {
    const { record, composed, recipients } = await apiSend({
      from: '"Acme Café, Inc." <hello@acme.test>',
      to: ['Ann Example <ann@example.org>', 'plain@example.org'],
      cc: '"Björn \\"the bear\\"" <bjorn@example.org>',
      bcc: 'hidden@example.org',
      reply_to: ['help@acme.test', 'Support <support@acme.test>'],
      subject: `Grüße — your invoice ${'and a long subject '.repeat(6)}`.trim(),
      html: '<p>Logo <img src="cid:logo@acme"></p>',
      text: 'Logo',
      headers: { 'X-Campaign': 'spring', 'X-Note': 'café crème', 'In-Reply-To': '<prev@acme.test>', 'X-Long': 'word '.repeat(60).trim() },
      attachments: [
        { filename: 'logo.png', content: PNG.toString('base64'), content_id: 'logo@acme' },
        { filename: 'invoice 1042 (copy).pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') },
        { filename: 'data.csv', content_type: 'text/csv; charset=utf-8', content: Buffer.from('a,b\r\n1,2\r\n').toString('base64') },
        {
          filename: `Ünïcödé ${'long name '.repeat(10)}.txt`,
          content_type: 'text/plain',
          content: Buffer.from('notes').toString('base64'),
        },
      ],
    });
    expect(await relayRecord(composed, recipients)).toEqual(record);
    expect(record.attachments.map((attachment) => attachment.filename)).toHaveLength(4);
  });

  it('is the API send record for a text-only message without attachments', async () => {
    const { record, composed, recipients } = await apiSend({ from: 'a@acme.test', to: 'x@example.org', subject: 'Plain', text: 'Hello' });
    expect(await relayRecord(composed, recipients)).toEqual(record);
    expect(record.attachments).toEqual([]);
  });
});

describe('the attachments a relayed message records, beyond what an API send can say', () => {
  const part = (headers: string[], body = 'eA==') => ['--b', ...headers, 'Content-Transfer-Encoding: base64', '', body].join('\r\n');
  const message = (parts: string[]) =>
    Buffer.from(['From: a@acme.test', 'Content-Type: multipart/mixed; boundary=b', '', 'Body', ...parts, '--b--', ''].join('\r\n'));

  it('names a nameless part `attachment`, makes control characters spaces and cuts values to 255 characters', () => {
    const long = 'n'.repeat(300);
    const recorded = attachmentsOfMessage(
      message([
        part(['Content-Type: application/octet-stream']),
        part([`Content-Type: application/pdf; name="a=?UTF-8?Q?=09tab=0D=0Abreak?=.pdf"`]),
        part([`Content-Type: application/pdf; name=${long}.pdf`, `Content-ID: <${long}@acme>`]),
        part([`Content-Type: application/x-thing; note="${long}"; name=t.bin`]),
      ]),
    );
    expect(recorded).toEqual([
      { filename: 'attachment', content_type: 'application/octet-stream', size: 1 },
      { filename: 'a tab break.pdf', content_type: 'application/pdf', size: 1 },
      { filename: 'n'.repeat(255), content_type: 'application/pdf', size: 1, content_id: 'n'.repeat(255) },
      // Its parameters do not fit: the type alone.
      { filename: 't.bin', content_type: 'application/x-thing', size: 1 },
    ]);
  });

  it(`lists at most ${MAX_LISTED_ATTACHMENTS} attachments (the message keeps them all)`, () => {
    const parts = Array.from({ length: MAX_LISTED_ATTACHMENTS + 20 }, (_, i) => part([`Content-Type: image/png; name=p${i}.png`]));
    const recorded = attachmentsOfMessage(message(parts));
    expect(recorded).toHaveLength(MAX_LISTED_ATTACHMENTS);
    expect(recorded[MAX_LISTED_ATTACHMENTS - 1]).toEqual({
      filename: `p${MAX_LISTED_ATTACHMENTS - 1}.png`,
      content_type: 'image/png',
      size: 1,
    });
  });
});
