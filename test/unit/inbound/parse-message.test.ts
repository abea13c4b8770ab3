/**
 * Reading a received message (shared/adapters/received-mail/parse-message.ts: mailparser, and what the record adds to
 * it): ordinary messages, broken ones, and hostile ones (sizes, part counts, nesting, pathological lines)
 * that must be read in linear time.
 */
import { MAX_STORED_ATTACHMENTS } from '#shared/domain/inbound/received-email';
import { MAX_MIME_PARTS, parseInbound } from '#shared/adapters/received-mail/parse-message';
import { crlf, normalMessage, oversizedPartHeaderMessage, PDF_BYTES, PNG_BYTES } from './messages';

describe('parseInbound', () => {
  it('reads a normal message: addresses, threading headers, date, bodies, header list', async () => {
    const parsed = await parseInbound(normalMessage);
    expect(parsed.parse_error).toBeNull();
    expect(parsed.from).toBe('Alice Example <alice@example.com>');
    expect(parsed.to).toEqual(['Support <support+1234@inbound.example.com>', 'other@inbound.example.com']);
    expect(parsed.cc).toEqual(['Carol <carol@example.org>']);
    expect(parsed.reply_to).toEqual(['replies@example.com']);
    expect(parsed.subject).toBe('Re: Your order ✓');
    expect(parsed.message_id).toBe('<reply-1@example.com>');
    expect(parsed.in_reply_to).toBe('<orig-1@service.example>');
    expect(parsed.references).toEqual(['<root-0@service.example>', '<orig-1@service.example>']);
    expect(parsed.date).toBe('2024-01-02T03:04:05.000Z');
    expect(parsed.text).toContain('Thanks, received.');
    expect(parsed.text).toContain('> Your order shipped.');
    expect(parsed.html).toContain('<p>Thanks, received.</p>');
    // The header list: the top block, in order, values unfolded.
    expect(parsed.headers[0]).toEqual({ name: 'From', value: 'Alice Example <alice@example.com>' });
    expect(parsed.headers.find((field) => field.name === 'References')).toEqual({
      name: 'References',
      value: '<root-0@service.example> <orig-1@service.example>',
    });
    expect(parsed.headers.map((field) => field.name)).not.toContain('Content-Disposition');
  });

  it('reads attachments with their bytes, type, size, disposition and Content-ID', async () => {
    const parsed = await parseInbound(normalMessage);
    expect(parsed.attachment_count).toBe(2);
    const pdf = parsed.attachments.find((attachment) => attachment.filename === 'invoice.pdf')!;
    expect(pdf).toMatchObject({
      content_type: 'application/pdf',
      size: PDF_BYTES.length,
      content_disposition: 'attachment',
      content_id: null,
    });
    expect(pdf.content.equals(PDF_BYTES)).toBe(true);
    const png = parsed.attachments.find((attachment) => attachment.filename === 'logo.png')!;
    expect(png).toMatchObject({ content_type: 'image/png', size: PNG_BYTES.length, content_disposition: 'inline' });
    expect(png.content_id).toContain('logo@example.com');
    expect(png.content.equals(PNG_BYTES)).toBe(true);
  });

  it('never throws on a part header over 1 MB: parse_error is set and the top header is still read (decoded)', async () => {
    const parsed = await parseInbound(oversizedPartHeaderMessage());
    expect(parsed.parse_error).toEqual(expect.any(String));
    expect(parsed.parse_error).not.toBe('');
    expect(parsed.subject).toBe('Broken but readable ✓');
    expect(parsed.from).toBe('Mallory <mallory@example.net>');
    expect(parsed.to).toEqual(['support@inbound.example.com']);
    expect(parsed.message_id).toBe('<broken-1@example.net>');
    expect(parsed.text).toBeNull();
    expect(parsed.html).toBeNull();
    expect(parsed.attachments).toEqual([]);
    expect(parsed.headers).toContainEqual({ name: 'Auto-Submitted', value: 'auto-generated' });
  });

  it('flattens group addresses into their members (an empty group gives nothing)', async () => {
    const parsed = await parseInbound(
      crlf(
        'From: alice@example.com',
        'To: Team: Bob <bob@example.com>, carol@example.com;, dave@example.com',
        'Cc: undisclosed-recipients:;',
        'Subject: groups',
        '',
        'hi',
        '',
      ),
    );
    expect(parsed.parse_error).toBeNull();
    expect(parsed.to).toEqual(['Bob <bob@example.com>', 'carol@example.com', 'dave@example.com']);
    expect(parsed.cc).toEqual([]);
  });

  it('gives empty values, not undefined, for a message without headers it needs', async () => {
    const parsed = await parseInbound(crlf('X-Nothing: here', '', 'just a body', ''));
    expect(parsed).toMatchObject({
      from: '',
      to: [],
      cc: [],
      reply_to: [],
      subject: '',
      message_id: null,
      in_reply_to: null,
      references: [],
      date: null,
      attachment_count: 0,
      parse_error: null,
    });
    expect(parsed.text).toContain('just a body');
  });

  it('makes text from the HTML of an HTML-only message (the HTML itself is kept as sent)', async () => {
    const parsed = await parseInbound(
      crlf(
        'From: a@example.com',
        'Subject: html',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Thanks, <b>received</b>.</p><blockquote>Your order shipped.</blockquote>',
      ),
    );
    expect(parsed.text).toBe('Thanks, received.\n\n> Your order shipped.');
    expect(parsed.html).toBe('<p>Thanks, <b>received</b>.</p><blockquote>Your order shipped.</blockquote>');
  });

  it('decodes RFC 2231 and RFC 2047 filenames and reads an attached message as an attachment', async () => {
    const parsed = await parseInbound(
      crlf(
        'From: a@example.com',
        'Content-Type: multipart/mixed; boundary=b',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'see attached',
        '--b',
        'Content-Type: application/octet-stream',
        "Content-Disposition: attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf",
        '',
        '%PDF',
        '--b',
        'Content-Type: image/png; name="=?UTF-8?Q?=C3=A9t=C3=A9.png?="',
        '',
        'PNG',
        '--b',
        'Content-Type: message/rfc822',
        '',
        'From: x@example.net',
        'Subject: inner',
        '',
        'inner body',
        '--b--',
      ),
    );
    expect(parsed.text).toBe('see attached');
    expect(
      parsed.attachments.map(({ filename, content_type, content_disposition }) => ({ filename, content_type, content_disposition })),
    ).toEqual([
      { filename: 'résumé.pdf', content_type: 'application/pdf', content_disposition: 'attachment' },
      { filename: 'été.png', content_type: 'image/png', content_disposition: 'attachment' },
      { filename: null, content_type: 'message/rfc822', content_disposition: 'attachment' },
    ]);
    expect(parsed.attachments[2]!.content.toString()).toBe('From: x@example.net\r\nSubject: inner\r\n\r\ninner body');
  });

  it('gives null for an unreadable Date (mailparser: the time of parsing) and the last Date when there are several', async () => {
    expect((await parseInbound(crlf('From: a@example.com', 'Date: someday', '', 'x'))).date).toBeNull();
    expect((await parseInbound(crlf('From: a@example.com', '', 'x'))).date).toBeNull();
    expect(
      (
        await parseInbound(
          crlf('From: a@example.com', 'Date: Mon, 1 Jan 2024 10:00:00 +0100 (CET)', 'Date: Tue, 2 Jan 2024 10:00:00 +0000', '', 'x'),
        )
      ).date,
    ).toBe('2024-01-02T10:00:00.000Z');
  });

  it('reads 8-bit header bytes as UTF-8, in the fields and in the header list (RFC 6532)', async () => {
    const parsed = await parseInbound(
      crlf('From: "Jürgen Müller" <juergen@example.org>', 'Subject: Grüße aus Köln ✓', 'X-Mbox: raw ü', '', 'x'),
    );
    expect(parsed.subject).toBe('Grüße aus Köln ✓');
    expect(parsed.from).toBe('Jürgen Müller <juergen@example.org>');
    expect(parsed.headers).toEqual([
      { name: 'From', value: '"Jürgen Müller" <juergen@example.org>' },
      { name: 'Subject', value: 'Grüße aus Köln ✓' },
      { name: 'X-Mbox', value: 'raw ü' },
    ]);
  });

  it('keeps an HTML body over 5 MB whole, without a text version made from it', async () => {
    const html = '<p>para</p>'.repeat(500_000);
    const parsed = await parseInbound(Buffer.from(`From: a@example.com\r\nSubject: big html\r\nContent-Type: text/html\r\n\r\n${html}`));
    expect(parsed).toMatchObject({ subject: 'big html', from: 'a@example.com', text: null, parse_error: null });
    expect(parsed.html).toBe(html);
  });

  describe('hostile input: limits, and linear time on large input', () => {
    /** Each takes up to ~3 s on a loaded 2-core machine (the timeout is Jest's 5 s otherwise). */
    const HOSTILE_TIMEOUT_MS = 30_000;
    const part = (n: number) =>
      `--p\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="f${n}.bin"\r\n\r\nA\r\n`;
    const manyParts = (count: number) =>
      Buffer.from(
        `From: parts@example.org\r\nSubject: Many parts\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n${Array.from({ length: count }, (_, n) => part(n + 1)).join('')}--p--\r\n`,
      );

    it(
      `reads a message of ${MAX_MIME_PARTS} parts whole: every attachment counted, ${MAX_STORED_ATTACHMENTS} kept`,
      async () => {
        const parsed = await parseInbound(manyParts(MAX_MIME_PARTS));
        expect(parsed.parse_error).toBeNull();
        expect(parsed.attachment_count).toBe(MAX_MIME_PARTS);
        expect(parsed.attachments).toHaveLength(MAX_STORED_ATTACHMENTS);
        expect(parsed.attachments[MAX_STORED_ATTACHMENTS - 1]).toMatchObject({ filename: `f${MAX_STORED_ATTACHMENTS}.bin`, size: 1 });
      },
      HOSTILE_TIMEOUT_MS,
    );

    it(
      `reads a message of ${MAX_MIME_PARTS + 1} parts as headers only, with parse_error`,
      async () => {
        const parsed = await parseInbound(manyParts(MAX_MIME_PARTS + 1));
        expect(parsed).toMatchObject({
          subject: 'Many parts',
          from: 'parts@example.org',
          text: null,
          html: null,
          attachments: [],
          attachment_count: 0,
          parse_error: 'Max allowed child nodes exceeded',
        });
      },
      HOSTILE_TIMEOUT_MS,
    );

    it(
      'reads a 10 MB message: a 6 MB text body and a 4 MB base64 attachment',
      async () => {
        const line = 'The quick brown fox jumps over the lazy dog. 0123456789 ÄÖÜ\r\n';
        const text = line.repeat(Math.ceil((6 * 1024 * 1024) / line.length));
        const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
        const message = Buffer.from(
          `From: big@example.org\r\nSubject: Big\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n--b\r\nContent-Type: application/octet-stream; name=big.bin\r\nContent-Transfer-Encoding: base64\r\n\r\n${bytes.toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n--b--\r\n`,
        );
        expect(message.length).toBeGreaterThan(10 * 1024 * 1024);
        const parsed = await parseInbound(message);
        expect(parsed.parse_error).toBeNull();
        expect(parsed.text).toBe(text.replace(/\r\n/g, '\n'));
        expect(parsed.attachments).toHaveLength(1);
        expect(parsed.attachments[0]!.content.equals(bytes)).toBe(true);
      },
      HOSTILE_TIMEOUT_MS,
    );

    it(
      'reads pathological lines: 10 MB without a line break, a 2 MB run of blanks in quoted-printable, 200,000 `<` in HTML',
      async () => {
        const longLine = 'x'.repeat(10 * 1024 * 1024);
        const one = await parseInbound(
          Buffer.from(
            `From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n${longLine}`,
          ),
        );
        expect(one.text).toHaveLength(longLine.length);

        const blanks = await parseInbound(
          Buffer.from(
            `From: a@example.org\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\na${' '.repeat(2 * 1024 * 1024)}b=\r\n${' '.repeat(2 * 1024 * 1024)}\r\nc\r\n`,
          ),
        );
        expect(blanks.text).toBe(`a${' '.repeat(2 * 1024 * 1024)}b\nc\n`);

        const html = await parseInbound(Buffer.from(`From: a@example.org\r\nContent-Type: text/html\r\n\r\n<p>${'<a '.repeat(200_000)}`));
        expect(html.text).toBe('');
        const comments = await parseInbound(
          Buffer.from(`From: a@example.org\r\nContent-Type: text/html\r\n\r\n${'<!-- x '.repeat(200_000)}`),
        );
        expect(comments.text).toBe('');
      },
      HOSTILE_TIMEOUT_MS,
    );

    it(
      "reads 1,000 nested levels; nesting deeper than mailparser's recursion reaches is read as headers only, with parse_error",
      async () => {
        const nested = (depth: number) => {
          let body = 'Content-Type: text/plain\r\n\r\nthe bottom of the nest\r\n';
          for (let level = depth - 1; level >= 0; level--)
            body = `Content-Type: multipart/mixed; boundary="lvl${level}"\r\n\r\n--lvl${level}\r\n${body}--lvl${level}--\r\n`;
          return Buffer.from(`From: deep@example.org\r\nSubject: Deep\r\n${body}`);
        };
        expect(await parseInbound(nested(200))).toMatchObject({ subject: 'Deep', text: 'the bottom of the nest', parse_error: null });
        expect(await parseInbound(nested(1000))).toMatchObject({
          subject: 'Deep',
          text: expect.stringMatching(/^the bottom of the nest\n?$/),
          parse_error: null,
        });
        // mailparser's recursion ends at ~2,400 levels on Node 20's default stack (fewer under Jest).
        const tooDeep = await parseInbound(nested(3000));
        expect(tooDeep).toMatchObject({
          subject: 'Deep',
          from: 'deep@example.org',
          text: null,
          attachment_count: 0,
          parse_error: 'Maximum call stack size exceeded',
        });
      },
      HOSTILE_TIMEOUT_MS,
    );

    it(
      'reads header values built to make regular expressions backtrack',
      async () => {
        const parsed = await parseInbound(
          Buffer.from(
            // Under the 1 MB a part's header may have.
            `From: ${'<'.repeat(50_000)}@${'@'.repeat(50_000)}\r\nSubject: ${'=?utf-8?Q?'.repeat(30_000)}\r\nContent-Type: text/plain; ${'a=b; '.repeat(30_000)}charset=utf-8\r\nContent-Transfer-Encoding: ${'('.repeat(100_000)}\r\n\r\nbody\r\n`,
          ),
        );
        expect(parsed.text).toBe('body\n');
        expect(parsed.subject).toBe('=?utf-8?Q?'.repeat(30_000));
      },
      HOSTILE_TIMEOUT_MS,
    );
  });
});
