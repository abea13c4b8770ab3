/**
 * shared/domain/mime/message-attachments.ts (the attachments a relayed message's record lists) against mailparser
 * on the same messages: the same parts, names, types, decoded sizes, Content-IDs and dispositions; and
 * what it adds: the type's parameters (but `name`), and sizes counted without decoding.
 */
import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { messageAttachments } from '#shared/domain/mime/message-attachments';
import { decodedSize, decodeTransferEncoding } from '#shared/domain/mime/transfer-encoding';

const compose = (mail: ConstructorParameters<typeof MailComposer>[0]) => new MailComposer(mail).compile().build();
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const FORWARDED = 'From: c@example.org\r\nSubject: old\r\n\r\nold body\r\n';

const MESSAGES: Record<string, () => Promise<Buffer>> = {
  'an inline image in multipart/related and a regular PDF': () =>
    compose({
      from: 'a@acme.test',
      to: 'b@example.org',
      subject: 'x',
      text: 'Plain',
      html: '<p><img src="cid:logo@acme"></p>',
      attachments: [
        { filename: 'logo.png', content: PNG, cid: 'logo@acme' },
        { filename: 'invoice.pdf', content: randomBytes(5000) },
      ],
    }),
  'text attachments: quoted-printable, 7bit, base64, a long Unicode name (RFC 2231)': () =>
    compose({
      from: 'a@acme.test',
      to: 'b@example.org',
      subject: 'x',
      text: 'Plain',
      attachments: [
        { filename: 'qp.txt', content: `café ${'crème '.repeat(40)}\n=end`, contentTransferEncoding: 'quoted-printable' },
        { filename: 'seven.txt', content: 'plain ascii\r\nlines\r\n', contentTransferEncoding: '7bit' },
        { filename: `Ünïcödé ${'long name '.repeat(12)}.csv`, content: 'a,b\n1,2\n', contentType: 'text/csv' },
      ],
    }),
  'a forwarded message (message/rfc822, base64 as the service composes it) and an HTML attachment': () =>
    compose({
      from: 'a@acme.test',
      to: 'b@example.org',
      subject: 'x',
      html: '<p>see attached</p>',
      attachments: [
        {
          filename: 'forwarded.eml',
          content: FORWARDED,
          contentType: 'message/rfc822',
          contentTransferEncoding: 'base64',
          contentDisposition: 'attachment',
        },
        { filename: 'page.html', content: '<p>att</p>', contentType: 'text/html' },
      ],
    }),
  'hand-written: no name, a Content-ID given twice, an inline part with a name, nested multiparts': async () =>
    Buffer.from(
      [
        'From: a@acme.test',
        'Content-Type: multipart/mixed; boundary=outer',
        '',
        '--outer',
        'Content-Type: text/plain',
        '',
        'Body',
        '--outer',
        'Content-Type: multipart/mixed; boundary=inner',
        '',
        '--inner',
        'Content-Type: application/octet-stream',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('nameless bytes').toString('base64'),
        '--inner',
        'Content-Type: image/gif; name="dot.gif"',
        'Content-Disposition: inline',
        'Content-ID: <first@acme>',
        'Content-ID: <second@acme>',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('GIF89a').toString('base64'),
        '--inner--',
        '--outer--',
        '',
      ].join('\r\n'),
    ),
};

describe('the attachments of a raw message', () => {
  it.each(Object.keys(MESSAGES))('are the ones mailparser finds: %s', async (name) => {
    const raw = await MESSAGES[name]!();
    const parsed = await simpleParser(raw);
    const ours = messageAttachments(raw);
    expect(ours.map((attachment) => ({ ...attachment, contentType: attachment.contentType.split(';')[0] }))).toEqual(
      parsed.attachments.map((attachment) => ({
        filename: attachment.filename ?? null,
        contentType: attachment.contentType,
        size: attachment.size,
        contentId: attachment.cid ?? null,
        disposition: attachment.contentDisposition === 'inline' ? 'inline' : 'attachment',
      })),
    );
    expect(ours.length).toBeGreaterThan(0);
  });

  it('keeps the content type with its parameters, but the name (the filename)', async () => {
    const raw = await compose({
      from: 'a@acme.test',
      to: 'b@example.org',
      text: 'x',
      attachments: [
        { filename: 'data.csv', content: 'a,b', contentType: 'text/csv; charset=utf-8' },
        { filename: 'odd.bin', content: 'x', contentType: 'application/x-thing; note="a b"; level=1' },
      ],
    });
    expect(messageAttachments(raw).map((attachment) => attachment.contentType)).toEqual([
      'text/csv; charset=utf-8',
      'application/x-thing; note="a b"; level=1',
    ]);
  });

  it('lists an inline 7bit message/rfc822 part too (mailparser reads it into the message: docs/smtp.md)', async () => {
    const raw = await compose({
      from: 'a@acme.test',
      to: 'b@example.org',
      text: 'x',
      attachments: [{ filename: 'forwarded.eml', content: FORWARDED, contentType: 'message/rfc822' }],
    });
    expect(raw.toString()).toMatch(/Content-Disposition: inline/);
    expect(messageAttachments(raw)).toEqual([
      { filename: 'forwarded.eml', contentType: 'message/rfc822', size: FORWARDED.length, contentId: null, disposition: 'inline' },
    ]);
    expect((await simpleParser(raw)).attachments).toEqual([]);
  });

  it('lists nothing for a message without attachments, an inline text part being a body', async () => {
    expect(messageAttachments(await compose({ from: 'a@acme.test', to: 'b@example.org', text: 'x', html: '<p>x</p>' }))).toEqual([]);
    expect(messageAttachments(Buffer.from('From: a@acme.test\r\n\r\nbody\r\n'))).toEqual([]);
  });
});

describe('decodedSize', () => {
  it('is the length of the decoded bytes, for every encoding, without decoding base64', () => {
    const bodies = [
      Buffer.alloc(0),
      Buffer.from('QQ'),
      Buffer.from('QUJD\r\nRA==\r\n'),
      Buffer.from('QU JD\r\n*RA=QUJD'), // junk skipped; the data ends at the first =
      Buffer.from('caf=C3=A9 =\r\nsoft  \r\nend= =3'),
      ...Array.from({ length: 200 }, (_, i) => {
        const bytes = randomBytes(1 + (i % 97));
        const base64 = bytes.toString('base64').replace(/(.{76})/g, '$1\r\n');
        return i % 3 === 0 ? Buffer.from(base64.replace(/=+$/, '')) : i % 3 === 1 ? Buffer.from(base64) : bytes;
      }),
    ];
    for (const body of bodies) {
      for (const encoding of ['base64', 'quoted-printable', '7bit', '']) {
        expect([encoding, body.toString('latin1'), decodedSize(body, encoding)]).toEqual([
          encoding,
          body.toString('latin1'),
          decodeTransferEncoding(body, encoding).length,
        ]);
      }
    }
  });
});
