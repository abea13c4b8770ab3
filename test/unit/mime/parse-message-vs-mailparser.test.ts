/**
 * The inbound parser (shared/inbound/parse-message.ts, the service's own MIME reader) against mailparser,
 * the parser it replaced there: for every message below, field by field, what the old parseInbound made
 * of mailparser's `simpleParser` (reproduced in `viaMailparser`). Where a difference is deliberate
 * (docs/inbound.md, "Parsing"), the case says what mailparser gives and what is given instead.
 */
import iconv from 'iconv-lite';
import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { MAX_STORED_ATTACHMENTS } from '../../../shared/domain/inbound/received-email';
import { parseInbound, type ParsedInbound } from '../../../shared/inbound/parse-message';
import { decodeEntities } from '../../../shared/mime/html-to-text';

const compose = (mail: ConstructorParameters<typeof MailComposer>[0]) => new MailComposer(mail).compile().build();
const crlf = (...lines: (string | Buffer)[]) => Buffer.concat(lines.map((line) => Buffer.concat([typeof line === 'string' ? Buffer.from(line, 'utf8') : line, Buffer.from('\r\n')])));
const encoded = (text: string, charset: string) => iconv.encode(text, charset);
const b64word = (text: string, charset: string) => `=?${charset}?B?${encoded(text, charset).toString('base64')}?=`;

/** The old parseInbound: mailparser's simpleParser with the same options, mapped the same way. */
const PARSER_OPTIONS = { skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: 5 * 1024 * 1024, maxChildNodes: 10_000 } as const;

async function viaMailparser(raw: Buffer): Promise<ParsedInbound> {
  return fromParsed(await simpleParser(raw, PARSER_OPTIONS));
}

function fromParsed(mail: ParsedMail): ParsedInbound {
  const attachments = mail.attachments ?? [];
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : null;
  const references = Array.isArray(mail.references) ? mail.references : mail.references ? mail.references.split(/\s+/).filter(Boolean) : [];
  return {
    from: addresses(mail.from)[0] ?? '',
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    reply_to: addresses(mail.replyTo),
    subject: mail.subject ?? '',
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    references,
    date,
    html: typeof mail.html === 'string' ? mail.html : null,
    text: mail.text ?? null,
    headers: (mail.headerLines ?? []).map(({ line }) => {
      const colon = line.indexOf(':');
      return { name: colon >= 0 ? line.slice(0, colon).trim() : line, value: colon >= 0 ? line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim() : '' };
    }),
    attachments: attachments.slice(0, MAX_STORED_ATTACHMENTS).map((attachment) => ({
      filename: attachment.filename ?? null,
      content_type: attachment.contentType || 'application/octet-stream',
      size: attachment.size ?? attachment.content.length,
      content_id: attachment.contentId ?? attachment.cid ?? null,
      content_disposition: attachment.contentDisposition === 'inline' ? 'inline' : 'attachment',
      content: attachment.content,
    })),
    attachment_count: attachments.length,
    parse_error: null,
  };
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const flat = (list: EmailAddress[]): EmailAddress[] => list.flatMap((entry) => (entry.group ? flat(entry.group) : [entry]));
  return objects.flatMap((object) => flat(object.value ?? [])).flatMap((entry) => {
    if (!entry.address) return entry.name ? [entry.name] : [];
    return [entry.name ? `${entry.name} <${entry.address}>` : entry.address];
  });
}

/** Attachments' bytes as base64 so that a difference prints readably. */
const comparable = (parsed: ParsedInbound) => ({ ...parsed, attachments: parsed.attachments.map((attachment) => ({ ...attachment, content: attachment.content.toString('base64') })) });

const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const BIG = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256));

const SAME_AS_MAILPARSER: Record<string, () => Buffer | Promise<Buffer>> = {
  'multipart/alternative by nodemailer, UTF-8 subject and names': () =>
    compose({ from: '"Zoë Ünïcode" <zoe@example.com>', to: ['Bob <bob@example.org>', 'carol@example.org'], cc: 'Dave <dave@example.net>', replyTo: 'replies@example.com', subject: 'Héllo ✓ wörld', text: 'Plain ünïcode\nline 2', html: '<p>HTML ünïcode &amp; entity</p>', messageId: '<m1@example.com>', date: new Date('2024-03-04T05:06:07Z') }),
  'mixed: base64 and quoted-printable attachments, long lines': () =>
    compose({
      from: 'a@example.com',
      to: 'b@example.org',
      subject: 'attachments',
      text: `${'ü'.repeat(300)}\n${'word '.repeat(60)}`,
      html: `<p>${'é'.repeat(500)}</p>`,
      attachments: [
        { filename: 'report.pdf', content: PDF, contentType: 'application/pdf' },
        { filename: 'notes.txt', content: 'Ünïcode notes\nline two with = sign\n', contentType: 'text/plain; charset=utf-8', encoding: undefined, contentTransferEncoding: 'quoted-printable' },
        { filename: 'big.bin', content: BIG },
      ],
    }),
  'inline image with cid in multipart/related': () =>
    compose({ from: 'a@example.com', to: 'b@example.org', subject: 'logo', text: 'see logo', html: '<p>logo: <img src="cid:logo@example.com"></p>', attachments: [{ filename: 'logo.png', content: PNG, cid: 'logo@example.com' }] }),
  'RFC 2231 filename with charset (filename*=utf-8\'\'...)': () =>
    crlf(
      'From: a@example.com',
      'To: b@example.org',
      'Subject: rfc2231',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'body',
      '--b',
      "Content-Type: application/pdf; name*=utf-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf",
      "Content-Disposition: attachment; filename*=utf-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf",
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      '--b--',
    ),
  'RFC 2231 continuations (filename*0*, filename*1*) in ISO-8859-1': () =>
    crlf(
      'From: a@example.com',
      'Subject: continuations',
      'Content-Type: multipart/mixed; boundary=b',
      '',
      '--b',
      'Content-Type: application/octet-stream',
      "Content-Disposition: attachment; filename*0*=iso-8859-1''Pr%E9sentation%20;",
      ' filename*1*=du%20projet; filename*2=".docx"',
      'Content-Transfer-Encoding: base64',
      '',
      'UEsDBA==',
      '--b--',
    ),
  'RFC 2047 filenames (B and Q) and a name parameter only': () =>
    crlf(
      'From: a@example.com',
      'Subject: rfc2047 names',
      'Content-Type: multipart/mixed; boundary=b',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'two attachments',
      '--b',
      'Content-Type: image/png; name="=?UTF-8?B?0YTQvtGC0L4ucG5n?="',
      'Content-Disposition: attachment',
      'Content-Transfer-Encoding: base64',
      '',
      PNG.toString('base64'),
      '--b',
      'Content-Type: application/vnd.ms-excel',
      'Content-Disposition: attachment; filename="=?iso-8859-1?Q?Bilan_=E9t=E9.xls?="',
      '',
      'XLS',
      '--b--',
    ),
  'encoded-word subjects and names in ISO-8859-1 (Q) and windows-1252 (B)': () =>
    crlf(
      `From: =?iso-8859-1?Q?Fran=E7ois_M=FCller?= <francois@example.fr>`,
      `To: ${b64word('Café “Crème” €', 'windows-1252')} <cafe@example.fr>`,
      `Subject: =?iso-8859-1?Q?R=E9sum=E9_de_la_r=E9union?= - ${b64word('prix 10 € – “ok”', 'windows-1252')}`,
      '',
      'body',
    ),
  // iconv-lite cannot encode ISO-2022-JP: 山田太郎, 会議のお知らせ and 明日の会議は十時からです。 encoded by Python's iso2022_jp codec.
  'ISO-2022-JP subject, name and body': () =>
    Buffer.concat([
      crlf('From: =?ISO-2022-JP?B?GyRCOzNFREJATzobKEI=?= <yamada@example.jp>', 'Subject: =?ISO-2022-JP?B?GyRCMnE1RCROJCpDTiRpJDsbKEI=?=', 'Content-Type: text/plain; charset=ISO-2022-JP', 'Content-Transfer-Encoding: 7bit', ''),
      Buffer.from('GyRCTEBGfCROMnE1RCRPPT07fiQrJGkkRyQ5ISMbKEINCg==', 'base64'),
    ]),
  'Shift_JIS subject and base64 body': () =>
    crlf(`From: a@example.jp`, `Subject: ${b64word('見積書の送付', 'shift_jis')}`, 'Content-Type: text/plain; charset=Shift_JIS', 'Content-Transfer-Encoding: base64', '', encoded('お世話になっております。\r\n見積書を送付します。', 'shift_jis').toString('base64')),
  'KOI8-R subject, name and quoted-printable body': () => {
    const body = encoded('Привет, мир!\r\nВторая строка.', 'koi8-r');
    const qp = [...body].map((byte) => (byte >= 0x80 || byte === 0x3d ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte))).join('');
    return crlf(`From: ${b64word('Иван Петров', 'koi8-r')} <ivan@example.ru>`, `Subject: ${b64word('Отчёт за март', 'koi8-r')}`, 'Content-Type: text/plain; charset=koi8-r', 'Content-Transfer-Encoding: quoted-printable', '', qp);
  },
  'GB2312 subject and 8-bit body, Big5 and EUC-KR parts': () =>
    Buffer.concat([
      crlf(`From: a@example.cn`, `Subject: ${b64word('季度报告', 'gb2312')}`, 'Content-Type: multipart/mixed; boundary=c', '', '--c', 'Content-Type: text/plain; charset=gb2312', 'Content-Transfer-Encoding: 8bit', ''),
      encoded('你好，世界', 'gb2312'),
      crlf('', '--c', 'Content-Type: text/plain; charset=big5', 'Content-Transfer-Encoding: 8bit', ''),
      encoded('繁體中文', 'big5'),
      crlf('', '--c', 'Content-Type: text/plain; charset=euc-kr', 'Content-Transfer-Encoding: 8bit', ''),
      encoded('안녕하세요', 'euc-kr'),
      crlf('', '--c--'),
    ]),
  'format=flowed with DelSp and space stuffing': () =>
    crlf('From: a@example.com', 'Subject: flowed', 'Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes', '', 'This is a long para', 'graph that flows. ', 'Next line', '', ' >stuffed', '-- ', 'sig'),
  'nested mixed / alternative / related with a PDF': () =>
    crlf(
      'From: a@example.com',
      'Subject: nested',
      'Content-Type: multipart/mixed; boundary=O',
      '',
      'preamble',
      '--O',
      'Content-Type: multipart/alternative; boundary=I',
      '',
      '--I',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'plain',
      '--I',
      'Content-Type: multipart/related; boundary=R',
      '',
      '--R',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<b>html</b><img src="cid:x@y">',
      '--R',
      'Content-Type: image/png',
      'Content-ID: <x@y>',
      'Content-Transfer-Encoding: base64',
      '',
      PNG.toString('base64'),
      '--R--',
      '--I--',
      '--O',
      'Content-Type: application/pdf',
      'Content-Disposition: attachment; filename=a.pdf',
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      '--O--',
      'epilogue',
    ),
  'message/rfc822 attachments (forwarded as attachment; no disposition, as in a bounce)': () =>
    crlf(
      'From: a@example.com',
      'Subject: Fwd: inner',
      'Content-Type: multipart/mixed; boundary=B',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--B',
      'Content-Type: message/rfc822; name="inner.eml"',
      'Content-Disposition: attachment; filename="inner.eml"',
      '',
      'From: x@example.net',
      'Subject: inner',
      'Content-Type: multipart/alternative; boundary=X',
      '',
      '--X',
      'Content-Type: text/plain',
      '',
      'inner body',
      '--X--',
      '--B',
      'Content-Type: message/rfc822',
      '',
      'From: y@example.net',
      'Subject: second',
      '',
      'second body',
      '--B--',
    ),
  'ISO-8859-1 bytes 0x80-0x9F (read as windows-1252 by both)': () => Buffer.concat([Buffer.from('From: a@example.com\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n'), Buffer.from([0x93, 0x71, 0x94, 0x20, 0x80])]),
  'no Content-Type, 8-bit UTF-8 body, bare LF': () => Buffer.from('From: a@example.com\nTo: b@example.org\nSubject: plain\n\nGrüße\nzweite Zeile\n', 'utf8'),
  'broken boundary: the declared boundary never appears': () =>
    crlf('From: Broken <broken@example.org>', 'Subject: Boundary never appears', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="never-seen"', '', 'This body has no delimiter line at all.', '--some-other-boundary', 'Content-Type: text/plain', '', 'stray part'),
  'missing closing boundary (inner multipart unterminated: the outer delimiters are its text)': () =>
    crlf(
      'From: a@example.com',
      'Subject: unterminated',
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
  'missing closing boundary at the end of the message; part cut off in its header': () =>
    crlf('From: cut@example.org', 'Subject: Truncated part', 'Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: text/plain; charset=utf-8', '', 'first part, complete', '--b1', 'Content-Type: application/pdf; name="cut.pdf"', 'Content-Transfer-Encoding: base64', 'Content-Dispos'),
  'address groups (named, empty) and display names with commas': () =>
    crlf(
      'From: "Doe, John" <john@example.com>',
      'To: Team: Bob <bob@example.com>, carol@example.com;, dave@example.com, =?utf-8?Q?Smith=2C_J=C3=BCrgen?= <js@example.de>',
      'Cc: undisclosed-recipients:;',
      'Subject: groups',
      '',
      'hi',
    ),
  'several From fields, a From with two mailboxes, two To fields': () =>
    crlf('From: First <first@example.com>, Second <second@example.com>', 'From: Later <later@example.com>', 'To: a@example.org', 'To: b@example.org', 'Reply-To: r1@example.com, r2@example.com', 'Subject: many froms', '', 'x'),
  'threading: folded References, In-Reply-To without brackets, several References fields': () =>
    crlf('From: a@example.com', 'Message-ID: plain-id@example.com', 'In-Reply-To: parent@example.com', 'References: <r1@example.com>', '\t<r2@example.com>  <r3@example.com>', 'References: <r4@example.com>', 'Subject: threads', 'Date: Mon, 1 Jan 2024 10:00:00 +0100 (CET)', '', 'x'),
  'an application/octet-stream attachment with a known extension, a Content-ID with spaces': () =>
    crlf(
      'From: a@example.com',
      'Subject: octet',
      'Content-Type: multipart/mixed; boundary=B',
      '',
      '--B',
      'Content-Type: application/octet-stream; name="scan.PDF"',
      'Content-ID:   <scan@example.com>  ',
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      '--B',
      'Content-Disposition: attachment; filename="r.docx"',
      '',
      'DOC',
      '--B',
      'Content-Disposition: form-data; filename="r.unknownext"',
      '',
      'ZZ',
      '--B--',
    ),
  'a text part and an inline text attachment (both are text)': () =>
    crlf('From: a@example.com', 'Subject: two texts', 'Content-Type: multipart/mixed; boundary=B', '', '--B', 'Content-Type: text/plain', '', 'first', '--B', 'Content-Type: text/plain; name=notes.txt', 'Content-Disposition: inline; filename=notes.txt', '', 'second', '--B', 'Content-Type: text/html', 'Content-Disposition: attachment; filename=page.html', '', '<p>attached page</p>', '--B--'),
  'a delivery status report (multipart/report)': () =>
    crlf(
      'From: MAILER-DAEMON@example.net',
      'Subject: Undelivered Mail Returned to Sender',
      'Content-Type: multipart/report; report-type=delivery-status; boundary=R',
      '',
      '--R',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '--R',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      '',
      'Final-Recipient: rfc822; nobody@example.net',
      'Action: failed',
      'Status: 5.1.1',
      '--R',
      'Content-Type: text/rfc822-headers',
      '',
      'From: a@example.com',
      'Subject: original',
      '--R--',
    ),
  'an encoded-word split in the middle of a UTF-8 character, adjacent words, text around': () =>
    crlf('From: a@example.com', `Subject: Re: =?UTF-8?B?${Buffer.from('日本').toString('base64')}?= =?UTF-8?Q?=E8=AA?= =?UTF-8?Q?=9E?= (done) =?utf-8?q?caf=C3=A9?=`, '', 'x'),
  'a punycode address and a quoted local part': () => crlf('From: =?utf-8?Q?M=C3=BCller?= <info@xn--mller-kva.de>', 'To: "john..doe"@example.com', 'Subject: idn', '', 'x'),
  'an mbox From line in front of the header': () => crlf('From sender@example.com Mon Jan  1 00:00:00 2024', 'From: sender@example.com', 'Subject: mbox', '', 'body'),
  'quoted-printable ISO-8859-1 text with an HTML alternative': () =>
    crlf(
      'From: a@example.com',
      'Subject: qp latin1',
      'Content-Type: multipart/alternative; boundary=A',
      '',
      '--A',
      'Content-Type: text/plain; charset=iso-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Voil=E0 le r=E9sum=E9, tr=E8s long=',
      ' et coup=E9.',
      '--A',
      'Content-Type: text/html; charset=iso-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '<p>Voil=E0 le r=E9sum=E9</p>',
      '--A--',
    ),
  'an attachment-only message (the top part is a PDF)': () => crlf('From: scanner@example.com', 'Subject: scan', 'Content-Type: application/pdf; name=scan.pdf', 'Content-Disposition: attachment; filename=scan.pdf', 'Content-Transfer-Encoding: base64', '', PDF.toString('base64')),
  'a multipart/alternative with HTML only (no text is made from it)': () =>
    crlf('From: a@example.com', 'Subject: html only alt', 'Content-Type: multipart/alternative; boundary=A', '', '--A', 'Content-Type: text/html; charset=utf-8', '', '<p>only html</p>', '--A--'),
};

describe('parseInbound matches mailparser', () => {
  test.each(Object.entries(SAME_AS_MAILPARSER))('%s', async (_name, make) => {
    const message = await make();
    const [ours, theirs] = await Promise.all([parseInbound(message), viaMailparser(message)]);
    expect(comparable(ours)).toEqual(comparable(theirs));
  });
});

/**
 * Random MIME trees (nesting, charsets, dispositions, missing delimiters, messages cut short or missing
 * lines): the same bodies and attachments as mailparser. Normalized for the documented differences: HTML
 * compared with character references decoded (text parts escaped into it), text only when the message has
 * no HTML (no text made from HTML), bodies 7bit or quoted-printable without raw 8-bit bytes (mailparser
 * reads those in a quoted-printable part as UTF-8 first) and no base64 (data after padding).
 */
describe('parseInbound matches mailparser on random structures', () => {
  let seed = 20240101;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pick = <T>(list: T[]) => list[random(list.length)]!;
  const words = ['héllo', 'wörld', 'Ünïcode', 'plain', 'a,b', 'x <y>', '€uro', 'data', '--', '=3D', 'café', '"q"', "it's"];
  const sentence = () => Array.from({ length: 1 + random(8) }, () => pick(words)).join(' ');

  function leaf(nl: string): string {
    const type = pick(['text/plain', 'text/html', 'text/html', 'text/plain', 'image/png', '', 'message/delivery-status', 'application/pdf']);
    const charset = pick(['utf-8', 'iso-8859-1', 'windows-1252', 'iso-8859-15', 'us-ascii', '']);
    const encoding = pick(['quoted-printable', '', '7bit', 'quoted-printable']);
    const disposition = pick(['', '', '', 'inline', 'attachment', 'attachment; filename="f.pdf"', 'inline; filename="x.txt"', "attachment; filename*=utf-8''r%C3%A9sum%C3%A9.doc"]);
    const header: string[] = [];
    if (type) header.push(`Content-Type: ${type}${charset && type.startsWith('text') ? `; charset=${charset}` : ''}${random(4) === 0 ? '; name="n.bin"' : ''}`);
    if (disposition) header.push(`Content-Disposition: ${disposition}`);
    if (encoding) header.push(`Content-Transfer-Encoding: ${encoding}`);
    if (random(4) === 0) header.push(`Content-ID: <cid${random(1000)}@example.com>`);
    let text = Array.from({ length: 1 + random(3) }, sentence).join('\n');
    if (type === 'text/html') text = `<p>${text.replace(/</g, '&lt;')}</p>`;
    const bytes = charset && charset !== 'us-ascii' && type.startsWith('text') ? encoded(text, charset) : Buffer.from(text, 'utf8');
    const body =
      encoding === 'quoted-printable'
        ? [...bytes].map((byte) => (byte >= 0x80 || byte === 0x3d ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : byte === 10 ? nl : String.fromCharCode(byte))).join('')
        : bytes.toString('latin1').replace(/[^\x00-\x7f]/g, '?').replace(/\n/g, nl);
    return `${header.join(nl)}${nl}${nl}${body}`;
  }

  function part(depth: number, nl: string): string {
    if (depth > 3 || random(3) === 0) return leaf(nl);
    const boundary = `b${depth}_${random(1000)}`;
    let text = `Content-Type: multipart/${pick(['mixed', 'alternative', 'related', 'mixed'])}; boundary="${boundary}"${nl}${nl}${random(2) ? `preamble${nl}` : ''}`;
    for (let i = 1 + random(3); i > 0; i--) text += `--${boundary}${nl}${part(depth + 1, nl)}${nl}`;
    if (random(6)) text += `--${boundary}--${nl}`;
    if (random(3) === 0) text += `epilogue${nl}`;
    return text;
  }

  function message(n: number): Buffer {
    const nl = random(5) === 0 ? '\n' : '\r\n';
    const raw = `From: ${pick(['a@example.com', '"N, M" <n@example.com>', '=?utf-8?B?w6k=?= <e@example.com>'])}${nl}Subject: ${pick(['=?iso-8859-1?Q?caf=E9?= x', 'plain'])}${nl}Message-ID: <m${n}@example.com>${nl}${part(0, nl)}`;
    const cut = random(3);
    if (cut === 1) return Buffer.from(raw.slice(0, random(raw.length + 1)), 'latin1');
    if (cut === 2) {
      const lines = raw.split(nl);
      for (let k = 0; k < 3; k++) lines.splice(random(lines.length), 1);
      return Buffer.from(lines.join(nl), 'latin1');
    }
    return Buffer.from(raw, 'latin1');
  }

  const normalized = (parsed: ParsedInbound) => ({
    subject: parsed.subject,
    from: parsed.from,
    html: parsed.html === null ? null : decodeEntities(parsed.html),
    text: parsed.html === null ? parsed.text : 'not compared',
    attachments: comparable(parsed).attachments,
  });

  test('400 messages', async () => {
    const differences: string[] = [];
    for (let n = 0; n < 400; n++) {
      const raw = message(n);
      const [ours, theirs] = await Promise.all([parseInbound(raw), viaMailparser(raw)]);
      const [mine, reference] = [JSON.stringify(normalized(ours)), JSON.stringify(normalized(theirs))];
      if (mine !== reference) differences.push(`${raw.toString('latin1')}\n--- ours: ${mine}\n--- mailparser: ${reference}`);
    }
    expect(differences).toEqual([]);
  });
});

/** The deliberate differences (docs/inbound.md, "Parsing"): what mailparser gives, and what is given instead. */
describe('parseInbound: deliberate differences from mailparser', () => {
  async function both(message: Buffer) {
    const [ours, theirs] = await Promise.all([parseInbound(message), viaMailparser(message)]);
    return { ours, theirs };
  }

  test('an unreadable Date is null (mailparser: the time of parsing)', async () => {
    const { ours, theirs } = await both(crlf('From: a@example.com', 'Date: not a date at all', 'Subject: bad date', '', 'x'));
    expect(Date.now() - Date.parse(theirs.date!)).toBeLessThan(60_000);
    expect(ours.date).toBeNull();
    expect(comparable({ ...ours, date: theirs.date })).toEqual(comparable(theirs));
  });

  test('an HTML-only message: text is made from the HTML by the small converter (mailparser: html-to-text)', async () => {
    const html = '<html><head><title>T</title><style>p { color: red }</style></head><body><h1>Order shipped</h1><p>Hello <b>Ana</b>,&nbsp;your order&#160;#42 &amp; more &eacute;&#x2713;</p><div>Line one<br>Line two</div><ul><li>first</li><li>second</li></ul><blockquote>quoted<br>text</blockquote><script>alert(1)</script><p>Bye</p></body></html>';
    const { ours, theirs } = await both(crlf('From: a@example.com', 'Subject: html', 'Content-Type: text/html; charset=utf-8', '', html));
    expect(theirs.text).toBe('ORDER SHIPPED\n\nHello Ana,\u00a0your order\u00a0#42 & more é✓\n\nLine one\nLine two\n * first\n * second\n\n> quoted\n> text\n\nBye');
    expect(ours.text).toBe('Order shipped\n\nHello Ana,\u00a0your order\u00a0#42 & more é✓\n\nLine one\nLine two\n * first\n * second\n\n> quoted\n> text\n\nBye');
    expect(comparable({ ...ours, text: theirs.text })).toEqual(comparable(theirs));
  });

  test('an HTML body over 5 MB is converted too (mailparser gives up on the whole message)', async () => {
    const message = Buffer.from(`From: a@example.com\r\nSubject: big html\r\nContent-Type: text/html\r\n\r\n${'<p>para</p>'.repeat(500_000)}`);
    await expect(viaMailparser(message)).rejects.toThrow(/HTML too long/);
    const ours = await parseInbound(message);
    expect(ours).toMatchObject({ subject: 'big html', parse_error: null });
    expect(ours.text).toBe(Array.from({ length: 500_000 }, () => 'para').join('\n\n'));
  });

  test('HTML and text parts side by side in a multipart/mixed: the text escaped into the HTML keeps non-ASCII characters (mailparser: &eacute;)', async () => {
    const message = crlf('From: a@example.com', 'Subject: mixed', 'Content-Type: multipart/mixed; boundary=B', '', '--B', 'Content-Type: text/html; charset=utf-8', '', '<p>Hi <a href="https://example.com">there</a></p>', '--B', 'Content-Type: text/plain; charset=utf-8', '', 'footer é <x> & "q"', '--B--');
    const { ours, theirs } = await both(message);
    expect(theirs.html).toBe('<p>Hi <a href="https://example.com">there</a></p><br/>\n<p>footer &eacute; &lt;x&gt; &amp; &quot;q&quot;</p>');
    expect(ours.html).toBe('<p>Hi <a href="https://example.com">there</a></p><br/>\n<p>footer é &lt;x&gt; &amp; &quot;q&quot;</p>');
    expect(theirs.text).toBe('Hi there [https://example.com]\nfooter é <x> & "q"');
    expect(ours.text).toBe('Hi there\nfooter é <x> & "q"');
  });

  test('8-bit header bytes are read as UTF-8 in the header list too (mailparser: one character per byte there)', async () => {
    const { ours, theirs } = await both(crlf('From: "Jürgen Müller" <juergen@example.org>', 'Subject: Grüße aus Köln ✓', '', 'x'));
    expect(ours.subject).toBe('Grüße aus Köln ✓');
    expect(ours.from).toBe('Jürgen Müller <juergen@example.org>');
    expect(ours.headers).toEqual([
      { name: 'From', value: '"Jürgen Müller" <juergen@example.org>' },
      { name: 'Subject', value: 'Grüße aus Köln ✓' },
    ]);
    expect(theirs.headers[1]).toEqual({ name: 'Subject', value: Buffer.from('Grüße aus Köln ✓').toString('latin1') });
    expect(comparable({ ...ours, headers: theirs.headers })).toEqual(comparable(theirs));
  });

  test('8-bit header bytes that are not UTF-8 are read as windows-1252 (mailparser: U+FFFD)', async () => {
    const message = Buffer.concat([Buffer.from('From: a@example.com\r\nSubject: '), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]), Buffer.from('\r\n\r\nx\r\n')]);
    const { ours, theirs } = await both(message);
    expect(theirs.subject).toBe('Caf\ufffd \ufffd');
    expect(ours.subject).toBe('Café €');
  });

  test('an unknown charset: UTF-8 when the bytes are UTF-8, else windows-1252 (mailparser: UTF-8 with U+FFFD)', async () => {
    const message = Buffer.concat([Buffer.from('From: a@example.com\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain; charset=unknown-8bit\r\n\r\n'), Buffer.from('Grüße', 'utf8'), Buffer.from('\r\n--B\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nCaf'), Buffer.from([0xe9]), Buffer.from('\r\n--B--\r\n')]);
    const { ours, theirs } = await both(message);
    expect(theirs.text).toBe('Grüße\nCaf\ufffd');
    expect(ours.text).toBe('Grüße\nCafé');
  });

  test('a delimiter line with trailing blanks (RFC 2046 transport padding) is a delimiter (mailparser: text of the preamble)', async () => {
    const message = crlf('From: a@example.com', 'Content-Type: multipart/mixed; boundary=B', '', '--B  ', 'Content-Type: text/plain', '', 'padded', '--B--\t');
    const { ours, theirs } = await both(message);
    expect(theirs.text).toBeNull();
    expect(ours.text).toBe('padded');
  });

  test('an inline message/rfc822 part is an attachment (mailparser shows the inner message as part of the text)', async () => {
    const message = crlf('From: a@example.com', 'Subject: fwd', 'Content-Type: multipart/mixed; boundary=B', '', '--B', 'Content-Type: text/plain', '', 'see below', '--B', 'Content-Type: message/rfc822', 'Content-Disposition: inline', '', 'From: x@example.net', 'Subject: inner', '', 'inner body', '--B--');
    const { ours, theirs } = await both(message);
    expect(theirs.text).toContain('inner body');
    expect(theirs.attachment_count).toBe(0);
    expect(ours.text).toBe('see below');
    expect(ours.attachments).toEqual([expect.objectContaining({ content_type: 'message/rfc822', content_disposition: 'inline', filename: null })]);
    expect(ours.attachments[0]!.content.toString()).toBe('From: x@example.net\r\nSubject: inner\r\n\r\ninner body');
  });

  test('a part whose body is a single empty line is empty (mailparser keeps the line break as text)', async () => {
    const message = crlf('From: a@example.com', 'Content-Type: multipart/mixed; boundary=B', '', '--B', 'Content-Type: text/plain', '', '', '--B', 'Content-Type: text/plain', '', 'second', '--B--');
    const { ours, theirs } = await both(message);
    expect(theirs.text).toBe('\n\nsecond');
    expect(ours.text).toBe('second');
  });
});
