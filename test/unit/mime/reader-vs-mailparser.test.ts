/**
 * The service's own MIME reader (shared/domain/mime/), where it stays (docs/reference/parsers.md: the dashboard's preview of a relayed message, the attachments the record of a relayed or
 * resent message lists, the relay's decoding of header words), against mailparser as the oracle: on random
 * messages (test/support/mime-message-arbitrary.ts: nested multiparts, charsets, transfer encodings,
 * encoded words, attachments, damaged messages) and on chosen ones, both read the same subject, the same
 * body parts in the same order, and the same attachments (name, type, decoded size, Content-ID,
 * disposition).
 *
 * Seeded, so a run is repeatable: MIME_PROPERTY_SEED=<n> draws other messages, MIME_PROPERTY_RUNS=<n> more
 * or fewer of them (default 300); a failure prints the seed, the shrunk message and both readings.
 */
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { MailParser } from 'mailparser';
import { decodeWords } from '#shared/domain/mime/encoded-words';
import { splitHeaderBlock, unfoldedValue } from '#shared/domain/mime/header-block';
import { messageAttachments } from '#shared/domain/mime/message-attachments';
import { parseBodies } from '#shared/domain/mime/parse-bodies';
import { HTML_FROM_TEXT, mailparserReading, TEXT_FROM_HTML, type Reading } from '../../support/mailparser-reading';
import { mimeMessage } from '../../support/mime-message-arbitrary';

// mailparser's conversions, marked so that test/support/mailparser-reading.ts can take them out (the
// factory cannot use TEXT_FROM_HTML: Jest hoists it above the imports).
jest.mock('html-to-text', () => ({ htmlToText: () => '\u0001text from html\u0001' }));
(MailParser.prototype as unknown as { textToHtml(text: string): string }).textToHtml = () => HTML_FROM_TEXT;

const SEED = Number(process.env.MIME_PROPERTY_SEED ?? 20261124);
const RUNS = Number(process.env.MIME_PROPERTY_RUNS ?? 300);

/** The service's reader on the same message, in the same shape. */
function ourReading(raw: Buffer): Reading {
  const subject = splitHeaderBlock(raw)
    .fields.filter((field) => field.name === 'subject')
    .map((field) => decodeWords(unfoldedValue(field)))
    .filter(Boolean)
    .pop();
  return {
    subject: subject ?? '',
    ...parseBodies(raw),
    attachments: messageAttachments(raw).map(({ filename, contentType, size, contentId, disposition }) => ({
      filename,
      contentType: contentType.split(';')[0]!,
      size,
      contentId,
      disposition,
    })),
  };
}

const crlf = (...lines: (string | Buffer)[]) =>
  Buffer.concat(lines.map((line) => Buffer.concat([typeof line === 'string' ? Buffer.from(line, 'utf8') : line, Buffer.from('\r\n')])));
const b64word = (text: string, charset: string) => `=?${charset}?B?${iconv.encode(text, charset).toString('base64')}?=`;
const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

const CHOSEN: Record<string, () => Buffer> = {
  'encoded-word subjects in ISO-8859-1 (Q) and windows-1252 (B)': () =>
    crlf(`Subject: =?iso-8859-1?Q?R=E9sum=E9_de_la_r=E9union?= - ${b64word('prix 10 € – “ok”', 'windows-1252')}`, '', 'body'),
  // 山田太郎, 会議のお知らせ and 明日の会議は十時からです。 in ISO-2022-JP (iconv-lite cannot encode it).
  'ISO-2022-JP subject and body': () =>
    Buffer.concat([
      crlf(
        'Subject: =?ISO-2022-JP?B?GyRCMnE1RCROJCpDTiRpJDsbKEI=?=',
        'Content-Type: text/plain; charset=ISO-2022-JP',
        'Content-Transfer-Encoding: 7bit',
        '',
      ),
      Buffer.from('GyRCTEBGfCROMnE1RCRPPT07fiQrJGkkRyQ5ISMbKEINCg==', 'base64'),
    ]),
  'Shift_JIS subject and base64 body': () =>
    crlf(
      `Subject: ${b64word('見積書の送付', 'shift_jis')}`,
      'Content-Type: text/plain; charset=Shift_JIS',
      'Content-Transfer-Encoding: base64',
      '',
      iconv.encode('お世話になっております。\r\n見積書を送付します。', 'shift_jis').toString('base64'),
    ),
  'GB2312, Big5 and EUC-KR parts in 8 bits': () =>
    Buffer.concat([
      crlf(
        `Subject: ${b64word('季度报告', 'gb2312')}`,
        'Content-Type: multipart/mixed; boundary=c',
        '',
        '--c',
        'Content-Type: text/plain; charset=gb2312',
        'Content-Transfer-Encoding: 8bit',
        '',
      ),
      iconv.encode('你好，世界', 'gb2312'),
      crlf('', '--c', 'Content-Type: text/plain; charset=big5', 'Content-Transfer-Encoding: 8bit', ''),
      iconv.encode('繁體中文', 'big5'),
      crlf('', '--c', 'Content-Type: text/plain; charset=euc-kr', 'Content-Transfer-Encoding: 8bit', ''),
      iconv.encode('안녕하세요', 'euc-kr'),
      crlf('', '--c--'),
    ]),
  'an encoded word split in the middle of a UTF-8 character, adjacent words, text around': () =>
    crlf(
      `Subject: Re: =?UTF-8?B?${Buffer.from('日本').toString('base64')}?= =?UTF-8?Q?=E8=AA?= =?UTF-8?Q?=9E?= (done) =?utf-8?q?caf=C3=A9?=`,
      '',
      'x',
    ),
  'RFC 2231 continuations (filename*0*, filename*1*) in ISO-8859-1, an RFC 2047 name': () =>
    crlf(
      'Content-Type: multipart/mixed; boundary=b',
      '',
      '--b',
      'Content-Type: application/octet-stream',
      "Content-Disposition: attachment; filename*0*=iso-8859-1''Pr%E9sentation%20;",
      ' filename*1*=du%20projet; filename*2=".docx"',
      'Content-Transfer-Encoding: base64',
      '',
      'UEsDBA==',
      '--b',
      'Content-Type: image/png; name="=?UTF-8?B?0YTQvtGC0L4ucG5n?="',
      'Content-Disposition: attachment',
      '',
      'PNG',
      '--b--',
    ),
  'format=flowed with DelSp and space stuffing': () =>
    crlf(
      'Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes',
      '',
      'This is a long para',
      'graph that flows. ',
      'Next line',
      '',
      ' >stuffed',
      '-- ',
      'sig',
    ),
  'a delivery status report (multipart/report)': () =>
    crlf(
      'Content-Type: multipart/report; report-type=delivery-status; boundary=R',
      '',
      '--R',
      'Content-Type: text/plain',
      '',
      'Not delivered.',
      '--R',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      '',
      'Action: failed',
      '--R',
      'Content-Type: text/rfc822-headers',
      '',
      'Subject: original',
      '--R--',
    ),
  'an inner multipart left open: the outer delimiters are its text': () =>
    crlf(
      'Content-Type: multipart/mixed; boundary=O',
      '',
      '--O',
      'Content-Type: multipart/alternative; boundary=I',
      '',
      '--I',
      'Content-Type: text/plain',
      '',
      'inner',
      '--O',
      'Content-Type: application/pdf',
      '',
      'PDF',
      '--O--',
    ),
  'a part cut off in its header': () =>
    crlf(
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'first part, complete',
      '--b1',
      'Content-Type: application/pdf; name="cut.pdf"',
      'Content-Transfer-Encoding: base64',
      'Content-Dispos',
    ),
  'HTML and text side by side in a multipart/mixed, an attachment-only top part': () =>
    crlf(
      'Content-Type: multipart/mixed; boundary=B',
      '',
      '--B',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Hi</p>',
      '--B',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'footer é',
      '--B',
      'Content-Type: application/pdf; name=scan.pdf',
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      '--B--',
    ),
  'raw 8-bit bytes in a quoted-printable part': () =>
    Buffer.concat([
      crlf('Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', ''),
      Buffer.from('Grüße =E2=9C=93 caf', 'utf8'),
      Buffer.from([0xc3, 0xa9]),
      Buffer.from('\r\n'),
    ]),
};

describe("the service's MIME reader reads what mailparser reads", () => {
  test.each(Object.keys(CHOSEN))('%s', async (name) => {
    const raw = CHOSEN[name]!();
    expect(ourReading(raw)).toEqual(await mailparserReading(raw));
  });

  test(`${RUNS} random messages (seed ${SEED})`, async () => {
    await fc.assert(
      // Drawn as latin1 text (one character per byte), so a counterexample prints readably.
      fc.asyncProperty(
        mimeMessage.map((raw) => raw.toString('latin1')),
        async (message) => {
          const raw = Buffer.from(message, 'latin1');
          expect({ message, reading: ourReading(raw) }).toEqual({ message, reading: await mailparserReading(raw) });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);

  test("the marks of mailparser's conversions are taken out", async () => {
    expect(TEXT_FROM_HTML).not.toBe(HTML_FROM_TEXT);
    const mixed = crlf(
      'Content-Type: multipart/mixed; boundary=B',
      '',
      '--B',
      'Content-Type: text/html',
      '',
      '<p>h</p>',
      '--B',
      'Content-Type: text/plain',
      '',
      't',
      '--B--',
    );
    expect(await mailparserReading(mixed)).toMatchObject({ text: 't', html: '<p>h</p>' });
    expect(await mailparserReading(crlf('Content-Type: text/html', '', '<p>only</p>'))).toMatchObject({
      text: null,
      html: '<p>only</p>\n',
    });
  });
});
