/**
 * shared/domain/mime/parse-bodies.ts (the dashboard's preview of a raw message) against mailparser, the parser
 * it replaces there: the same text and HTML for every message below, and the two documented differences.
 */
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseBodies } from '#shared/domain/mime/parse-bodies';

const compose = (mail: ConstructorParameters<typeof MailComposer>[0]) => new MailComposer(mail).compile().build();
const raw = (text: string) => async () => Buffer.from(text, 'latin1');

const SAME_AS_MAILPARSER: Record<string, () => Promise<Buffer>> = {
  'a text message (CRLF)': raw('From: a@acme.test\r\nSubject: t\r\n\r\nHello there\r\nsecond line\r\n'),
  'a text message (bare LF)': raw('From: a@acme.test\nSubject: t\n\nHello there\nsecond line\n'),
  'no Content-Type, 8-bit UTF-8 body': async () =>
    Buffer.concat([Buffer.from('From: a@b.test\r\n\r\n'), Buffer.from('é utf8 body\r\n', 'utf8')]),
  'us-ascii label on UTF-8 bytes (read as UTF-8)': async () =>
    Buffer.concat([Buffer.from('From: a@b.test\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n'), Buffer.from('é\r\n', 'utf8')]),
  'multipart/alternative composed by nodemailer': () =>
    compose({
      from: 'a@b.test',
      to: 'c@d.test',
      subject: 'Héllo',
      text: 'Plain ünïcode\nline 2',
      html: '<p>HTML ünïcode &amp; entity</p>',
    }),
  'long lines, quoted-printable and base64': () =>
    compose({
      from: 'a@b.test',
      to: 'c@d.test',
      subject: 'x',
      text: `${'ü'.repeat(300)}\n${'word '.repeat(60)}`,
      html: `<p>${'é'.repeat(500)}</p>`,
    }),
  'attachments, an inline image and an HTML attachment': () =>
    compose({
      from: 'a@b.test',
      to: 'c@d.test',
      subject: 'x',
      text: 'Plain',
      html: '<p>H <img src="cid:img1"></p>',
      attachments: [
        { filename: 'a.txt', content: 'attached text' },
        { filename: 'i.png', content: Buffer.from('png'), cid: 'img1' },
        { filename: 'b.html', content: '<p>att</p>', contentType: 'text/html' },
      ],
    }),
  'text with a text attachment': () =>
    compose({
      from: 'a@b.test',
      to: 'c@d.test',
      subject: 'x',
      text: 'Plain only',
      attachments: [{ filename: 'a.txt', content: 'attached text' }],
    }),
  'quoted-printable ISO-8859-15 with a soft break': raw(
    'From: a@b.test\r\nContent-Type: text/plain; charset=iso-8859-15\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\ncaf=E9 cr=E8me =A4=\r\n soft\r\n',
  ),
  'windows-1252 in base64 (Node reads it as ISO-8859-1)': raw(
    `From: a@b.test\r\nContent-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x85]).toString('base64')}\r\n`,
  ),
  Shift_JIS: async () =>
    Buffer.concat([
      Buffer.from('From: a@b.test\r\nContent-Type: text/plain; charset=shift_jis\r\n\r\n'),
      Buffer.from([0x82, 0xa0, 0x82, 0xa2]),
      Buffer.from('\r\n'),
    ]),
  'ISO-2022-JP': raw('From: a@b.test\r\nContent-Type: text/plain; charset="ISO-2022-JP"\r\n\r\n\x1b$B$"$$\x1b(B\r\n'),
  'an unknown charset (read as UTF-8)': raw('From: a@b.test\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nhello\r\n'),
  'two text parts of multipart/mixed, preamble and epilogue': raw(
    'From: a@b.test\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\npreamble\r\n--XX\r\nContent-Type: text/plain\r\n\r\nfirst\r\n--XX\r\nContent-Type: text/plain\r\n\r\nsecond\r\n--XX--\r\nepilogue\r\n',
  ),
  'a quoted boundary with a space; a text part with attachment disposition': raw(
    'From: a@b.test\r\nContent-Type: multipart/mixed; boundary="a b"\r\n\r\n--a b\r\nContent-Type: text/plain\r\n\r\nbody\r\n--a b\r\nContent-Type: text/plain; name=a.txt\r\nContent-Disposition: attachment; filename=a.txt\r\n\r\nattachment\r\n--a b--\r\n',
  ),
  'format=flowed, space stuffing and a signature': raw(
    'From: a@b.test\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\n\r\nThis is a long \r\nparagraph that \r\nflows.\r\n\r\n From stuffed\r\n-- \r\nsig\r\n',
  ),
  'format=flowed; delsp=yes': raw(
    'From: a@b.test\r\nContent-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n\r\nThis is a long \r\nparagraph.\r\n',
  ),
  'nested mixed / alternative / related': raw(
    'From: a@b.test\r\nContent-Type: multipart/mixed; boundary=O\r\n\r\n--O\r\nContent-Type: multipart/alternative; boundary=I\r\n\r\n--I\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nplain\r\n--I\r\nContent-Type: multipart/related; boundary=R\r\n\r\n--R\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<b>html</b>\r\n--R\r\nContent-Type: image/png\r\nContent-ID: <x>\r\n\r\nPNG\r\n--R--\r\n--I--\r\n--O\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n\r\n%PDF\r\n--O--\r\n',
  ),
  'a multipart without its closing delimiter': raw(
    'From: a@b.test\r\nContent-Type: multipart/alternative; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nunterminated\r\n',
  ),
};

async function mailparser(message: Buffer): Promise<{ text: string | null; html: string | null }> {
  const parsed = await simpleParser(message, { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true });
  return { text: parsed.text ?? null, html: typeof parsed.html === 'string' ? parsed.html : null };
}

describe('parseBodies', () => {
  test.each(Object.entries(SAME_AS_MAILPARSER))('%s: the text and HTML mailparser reads', async (_name, make) => {
    const message = await make();
    expect(parseBodies(message)).toEqual(await mailparser(message));
  });

  test('windows-1252 bytes 0x80-0x9F are its characters (not C1 controls)', () => {
    const message = Buffer.concat([
      Buffer.from('Content-Type: text/html; charset=windows-1252\r\n\r\n<b>'),
      Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94]),
      Buffer.from('</b>'),
    ]);
    expect(parseBodies(message)).toEqual({ text: null, html: '<b>€ “q”</b>' });
  });

  // The two differences from mailparser (shared/domain/mime/parse-bodies.ts says why).
  test('an HTML-only message has no text version (mailparser makes one from the HTML)', async () => {
    const message = Buffer.from('From: a@acme.test\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Raw body</p>\r\n');
    expect(parseBodies(message)).toEqual({ text: null, html: '<p>Raw body</p>\n' });
    expect(await mailparser(message)).toEqual({ text: 'Raw body', html: '<p>Raw body</p>\n' });
  });

  test('an attached message (message/rfc822) is not shown inline', async () => {
    const message = await compose({
      from: 'a@b.test',
      to: 'c@d.test',
      subject: 'fw',
      text: 'see attached',
      attachments: [
        { filename: 'm.eml', content: 'From: x@y.test\r\nSubject: inner\r\n\r\ninner body\r\n', contentType: 'message/rfc822' },
      ],
    });
    expect(parseBodies(message)).toEqual({ text: 'see attached', html: null });
  });

  test('nesting deeper than 20 levels is not read', () => {
    let message = 'Content-Type: text/plain\r\n\r\ndeep\r\n';
    for (let i = 0; i < 25; i++) message = `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n${message}\r\n--b${i}--\r\n`;
    expect(parseBodies(Buffer.from(message))).toEqual({ text: null, html: null });
  });
});
