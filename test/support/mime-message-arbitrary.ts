/**
 * Random raw MIME messages for property tests (fast-check): nested multiparts (mixed, alternative,
 * related; preambles, epilogues, closing delimiters sometimes missing), text, HTML and attachment leaves
 * in many charsets (UTF-8, ISO-8859-1/15, windows-1252, KOI8-R, Shift_JIS, GBK, Big5, EUC-KR, us-ascii,
 * none), transfer encodings (7bit, 8bit, quoted-printable with and without raw 8-bit bytes, base64, none),
 * format=flowed, dispositions with filenames written plainly, as RFC 2047 words or as RFC 2231 values (with
 * continuations), Content-IDs, a subject of RFC 2047 words in those charsets (folded, adjacent words, raw
 * UTF-8), CRLF or bare LF; and broken messages: closing delimiters left out, lines taken out, cut short.
 *
 * What mailparser and the service's reader read differently (docs/smtp.md, "The service's own MIME
 * reader") is not drawn: delimiters with trailing blanks, multipart/digest, inline message/rfc822 parts,
 * unknown charsets, base64 `=` padding, bytes a charset does not define (a broken message's parts are all
 * UTF-8), a body of one empty line.
 */
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { encode as qpEncode, wrap } from 'nodemailer/lib/qp';

/** Words each charset can write (ASCII words go with every one). */
const WORDS: Record<string, string[]> = {
  'utf-8': ['héllo', 'wörld', 'Ünïcode', '€uro', 'naïve', '日本語', 'Привет', '✓ done', '😀'],
  'iso-8859-1': ['héllo', 'wörld', 'Ünïcode', 'café', 'crème brûlée'],
  'iso-8859-15': ['€uro', 'café', 'œuvre'],
  'windows-1252': ['café', '€uro', '“quoted”', '– dash', '…'],
  'koi8-r': ['Привет', 'мир', 'Отчёт'],
  shift_jis: ['日本語', 'テスト', 'お知らせ'],
  gbk: ['你好', '世界', '季度报告'],
  big5: ['繁體', '中文'],
  'euc-kr': ['안녕', '하세요'],
  'us-ascii': [],
};
const ASCII_WORDS = [
  'plain',
  'data',
  'a,b',
  'x <y> & z',
  '=3D',
  '"q"',
  "it's",
  'tab\there',
  'dots...',
  'line-end',
  'http://example.com/a?b=c',
];
const CHARSETS = Object.keys(WORDS);
/** How a charset is written in a Content-Type: its name, an alias or another case. */
const LABELS: Record<string, string[]> = {
  'utf-8': ['utf-8', 'UTF-8', 'utf8'],
  'iso-8859-1': ['iso-8859-1', 'ISO-8859-1', 'latin1'],
  'iso-8859-15': ['iso-8859-15'],
  'windows-1252': ['windows-1252', 'cp1252'],
  'koi8-r': ['koi8-r', 'KOI8-R'],
  shift_jis: ['shift_jis', 'Shift_JIS'],
  gbk: ['gbk', 'gb2312', 'GB2312'],
  big5: ['big5'],
  'euc-kr': ['euc-kr'],
  'us-ascii': ['us-ascii'],
};
const FILENAMES = [
  'report.pdf',
  'résumé.docx',
  'données 2024.csv',
  '日本語.txt',
  'image.PNG',
  'archive.tar.gz',
  'noext',
  'notes.txt',
  'page.html',
  'photo.jpg',
];

type Eol = '\r\n' | '\n';

/** Text as its UTF-8 bytes, one character per byte (the messages are assembled as latin1 strings). */
const utf8Bytes = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

const text = (charset: string) => {
  const words = [...ASCII_WORDS, ...WORDS[charset]!];
  const line = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }).map((list) => list.join(' '));
  return fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
};

const bytesOf = (value: string, charset: string) => (charset === 'us-ascii' ? Buffer.from(value, 'latin1') : iconv.encode(value, charset));

/** A body in a transfer encoding; `bytes` already has the message's line breaks. */
function encodeBody(bytes: Buffer, encoding: string, eol: Eol): string {
  // Whole groups of three bytes: no `=` padding, where the reader ends the data and mailparser's decoder
  // reads on (a part that swallowed the rest of a broken message; docs/smtp.md).
  if (encoding === 'base64')
    return Buffer.concat([bytes, Buffer.from('  ')])
      .subarray(0, bytes.length + ((3 - (bytes.length % 3)) % 3))
      .toString('base64')
      .replace(/.{76}/g, `$&${eol}`);
  if (encoding === 'quoted-printable') return wrap(qpEncode(bytes), 76).replace(/\r\n/g, eol);
  // 7bit, 8bit, none, and quoted-printable written by hand: raw bytes (8-bit ones too).
  return bytes.toString('latin1');
}

/** A filename parameter in one of the ways mail clients write it. */
const filenameParam = (name: string) =>
  fc.constantFrom(
    `filename="${name}"`,
    `filename=${/^[\w.-]+$/.test(name) ? name : `"${name}"`}`,
    `filename="=?UTF-8?B?${Buffer.from(name).toString('base64')}?="`,
    `filename="=?utf-8?Q?${[...Buffer.from(name)].map((byte) => (byte > 0x20 && byte < 0x7f && byte !== 0x3d && byte !== 0x3f && byte !== 0x5f && byte !== 0x22 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('')}?="`,
    `filename*=utf-8''${encodeURIComponent(name).replace(/'/g, '%27')}`,
    `filename*0*=utf-8''${encodeURIComponent(name.slice(0, 3))};\r\n filename*1*=${encodeURIComponent(name.slice(3)).replace(/'/g, '%27')}`,
  );

/** How a message is drawn: its line breaks, and whether its structure may be broken. */
interface Shape {
  eol: Eol;
  /** Multipart delimiters may be missing (a closing one left out, lines taken out, the message cut short). */
  broken: boolean;
}

const leaf = ({ eol, broken }: Shape) =>
  fc
    .record({
      type: fc.constantFrom(
        'text/plain',
        'text/plain',
        'text/html',
        'text/html',
        'application/pdf',
        'image/png',
        'application/octet-stream',
        'text/csv',
        'message/delivery-status',
        'message/rfc822',
        '',
      ),
      // Broken messages have their bytes in the wrong parts, or cut in the middle of a character: bytes a
      // charset does not define (a multibyte one's bad sequences, windows-1252's 0x81, 0x8D, 0x8F, 0x90 and
      // 0x9D) are read by Node's WHATWG decoder and by mailparser's iconv-lite each in its own way (there is
      // no one reading of them), so in those messages every part is UTF-8.
      charset: fc.constantFrom(...(broken ? ['utf-8', 'us-ascii'] : CHARSETS), ''),
      // No base64 where a part may take in the rest of a broken message: the `=` of the header fields it
      // takes in ends the data for the reader (RFC 2045 6.8), not for mailparser's decoder, which reads on
      // line by line (docs/smtp.md).
      encoding: fc.constantFrom(
        '7bit',
        '8bit',
        'quoted-printable',
        'quoted-printable',
        ...(broken ? [] : ['base64', 'base64']),
        'qp-raw',
        '',
      ),
      disposition: fc.constantFrom('', '', 'inline', 'attachment'),
      filename: fc.option(fc.constantFrom(...FILENAMES), { freq: 2 }),
      nameParam: fc.boolean(),
      flowed: fc.boolean(),
      contentId: fc.option(fc.integer({ min: 1, max: 999 }), { freq: 4 }),
      seed: fc.integer({ min: 0, max: 1_000_000 }),
    })
    .chain((part) =>
      fc.tuple(
        fc.constant(part),
        text(part.charset || 'utf-8'),
        part.filename ? filenameParam(part.filename).map((value) => value.replace(/\r\n/g, eol)) : fc.constant(''),
      ),
    )
    .map(([part, body, filename]) => {
      const isText = part.type.startsWith('text/');
      const header: string[] = [];
      const charsetLabel = part.charset ? LABELS[part.charset]![part.seed % LABELS[part.charset]!.length] : '';
      if (part.type) {
        const params = [
          isText && charsetLabel ? `charset=${charsetLabel}` : '',
          part.nameParam && part.filename ? `name="${part.filename}"` : '',
          part.type === 'text/plain' && part.flowed ? 'format=flowed' : '',
        ].filter(Boolean);
        header.push(`Content-Type: ${[part.type, ...params].join('; ')}`);
      }
      // An inline message/rfc822 part is read into the message by mailparser, as an attachment by the reader.
      const disposition = part.type === 'message/rfc822' && part.disposition === 'inline' ? 'attachment' : part.disposition;
      if (disposition || filename)
        header.push(`Content-Disposition: ${[disposition || 'attachment', filename].filter(Boolean).join('; ')}`);
      const encoding = part.encoding === 'qp-raw' ? 'quoted-printable' : part.encoding;
      if (encoding) header.push(`Content-Transfer-Encoding: ${encoding}`);
      if (part.contentId !== null) header.push(`Content-ID: <cid${part.contentId}@example.com>`);
      let content = body;
      if (part.type === 'text/html') content = `<p>${body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>\n')}</p>`;
      if (part.type === 'text/plain' && part.flowed)
        content = content.replace(/ /g, (space, offset) => (offset % 17 === 0 ? ` ${'\n'}` : space));
      if (part.type === 'message/rfc822') content = `From: inner@example.net\nSubject: inner\n\n${body}`;
      const bytes = bytesOf(content.replace(/\n/g, eol), isText ? part.charset || 'utf-8' : 'utf-8');
      return `${utf8Bytes(header.join(eol))}${eol}${eol}${encodeBody(bytes, part.encoding, eol)}`;
    });

const multipart = ({ eol, broken }: Shape, child: fc.Arbitrary<string>) =>
  fc
    .record({
      subtype: fc.constantFrom('mixed', 'mixed', 'alternative', 'related'),
      boundary: fc.constantFrom('b', '=_part_1', 'boundary with spaces', '----=_NextPart_000_0001', 'x.y:z'),
      level: fc.integer({ min: 0, max: 9999 }),
      children: fc.array(child, { minLength: 1, maxLength: 3 }),
      preamble: fc.boolean(),
      closed: broken ? fc.integer({ min: 0, max: 5 }).map((n) => n > 0) : fc.constant(true),
      epilogue: fc.boolean(),
    })
    .map(({ subtype, boundary, level, children, preamble, closed, epilogue }) => {
      const delimiter = `${boundary}${level}`;
      const lines = [`Content-Type: multipart/${subtype}; boundary="${delimiter}"`, ''];
      if (preamble) lines.push('This is a multi-part message in MIME format.');
      for (const part of children) lines.push(`--${delimiter}`, part);
      if (closed) lines.push(`--${delimiter}--`);
      if (epilogue) lines.push('epilogue');
      return lines.join(eol);
    });

const part = (shape: Shape) =>
  fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf(shape), multipart(shape, tie('node') as fc.Arbitrary<string>)),
  })).node as fc.Arbitrary<string>;

/** A Subject of plain words and RFC 2047 words (B and Q, in the charsets above), sometimes folded or raw UTF-8. */
const subject = fc
  .array(
    fc.oneof(
      fc.constantFrom(...ASCII_WORDS.filter((word) => !word.includes('\t'))),
      fc
        .tuple(fc.constantFrom(...CHARSETS.filter((charset) => WORDS[charset]!.length)), fc.nat(), fc.boolean())
        .map(([charset, n, base64]) => {
          const word = WORDS[charset]![n % WORDS[charset]!.length]!;
          const bytes = iconv.encode(word, charset);
          const label = LABELS[charset]![n % LABELS[charset]!.length];
          if (base64) return `=?${label}?B?${bytes.toString('base64')}?=`;
          return `=?${label}?Q?${[...bytes].map((byte) => (byte > 0x20 && byte < 0x7f && byte !== 0x3d && byte !== 0x3f && byte !== 0x5f ? String.fromCharCode(byte) : byte === 0x20 ? '_' : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('')}?=`;
        }),
      fc.constantFrom('Grüße', 'naïve ✓'),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .chain((words) => fc.constantFrom(' ', '\r\n ').map((gap) => words.join(gap)));

/** How a broken message is damaged: not at all (its delimiters may still be missing), cut at a byte, or a few lines left out. */
const damage = fc.oneof(
  { weight: 1, arbitrary: fc.constant((raw: Buffer) => raw) },
  {
    weight: 1,
    arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((at) => (raw: Buffer) => raw.subarray(0, Math.floor(at * raw.length))),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }).map((cuts) => (raw: Buffer) => {
      const lines = raw.toString('latin1').split('\n');
      for (const at of cuts) lines.splice(Math.floor(at * lines.length), 1);
      return Buffer.from(lines.join('\n'), 'latin1');
    }),
  },
);

const shape: fc.Arbitrary<Shape> = fc.record({ eol: fc.constantFrom<Eol>('\r\n', '\r\n', '\n'), broken: fc.boolean() });

export const mimeMessage: fc.Arbitrary<Buffer> = shape.chain(({ eol, broken }) =>
  fc.tuple(subject, part({ eol, broken }), broken ? damage : fc.constant((raw: Buffer) => raw)).map(([subjectText, body, damaged]) => {
    const header = [
      'From: Sender <sender@example.com>',
      'To: someone@example.org',
      `Subject: ${subjectText.replace(/\r\n/g, eol)}`,
      'Message-ID: <m@example.com>',
      'MIME-Version: 1.0',
    ];
    return damaged(Buffer.from(`${utf8Bytes(header.join(eol))}${eol}${body}${eol}`, 'latin1'));
  }),
);
