/** Raw messages shared by the inbound unit tests (CRLF, as received over SMTP). */
export const crlf = (...lines: string[]) => Buffer.from(lines.join('\r\n'), 'utf8');

export const PDF_BYTES = Buffer.from('%PDF-1.4 fake pdf bytes for the test\n');
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** A reply with Cc, Reply-To, threading headers, text + html bodies, an attachment and an inline image. */
export const normalMessage = crlf(
  'From: Alice Example <alice@example.com>',
  'To: Support <support+1234@inbound.example.com>, other@inbound.example.com',
  'Cc: Carol <carol@example.org>',
  'Reply-To: replies@example.com',
  'Subject: =?UTF-8?B?UmU6IFlvdXIgb3JkZXIg4pyT?=',
  'Message-ID: <reply-1@example.com>',
  'In-Reply-To: <orig-1@service.example>',
  'References: <root-0@service.example>',
  ' <orig-1@service.example>',
  'Date: Tue, 02 Jan 2024 03:04:05 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="mixed"',
  '',
  '--mixed',
  'Content-Type: multipart/related; boundary="related"',
  '',
  '--related',
  'Content-Type: multipart/alternative; boundary="alt"',
  '',
  '--alt',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Thanks, received.',
  '',
  'On Mon, Jan 1, 2024 at 10:00 AM Support <support@example.com> wrote:',
  '> Your order shipped.',
  '--alt',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Thanks, received.</p><img src="cid:logo@example.com">',
  '--alt--',
  '--related',
  'Content-Type: image/png',
  'Content-ID: <logo@example.com>',
  'Content-Disposition: inline; filename="logo.png"',
  'Content-Transfer-Encoding: base64',
  '',
  PNG_BYTES.toString('base64'),
  '--related--',
  '--mixed',
  'Content-Type: application/pdf; name="invoice.pdf"',
  'Content-Disposition: attachment; filename="invoice.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  PDF_BYTES.toString('base64'),
  '--mixed--',
  '',
);

/** A message one of whose MIME parts has a header over 1 MB: mailparser gives up on it. */
export function oversizedPartHeaderMessage(): Buffer {
  return crlf(
    'From: Mallory <mallory@example.net>',
    'To: support@inbound.example.com',
    'Subject: =?UTF-8?Q?Broken_but_readable_=E2=9C=93?=',
    'Message-ID: <broken-1@example.net>',
    'Auto-Submitted: auto-generated',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    `X-Huge: ${'a'.repeat(1024 * 1024 + 100)}`,
    '',
    'body text',
    '--b1--',
    '',
  );
}
