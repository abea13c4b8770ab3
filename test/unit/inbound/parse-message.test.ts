/** Reading a received message (shared/inbound/parse-message.ts) with the real mailparser. */
import { parseInbound } from '../../../shared/inbound/parse-message';
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
    expect(parsed.headers.find((field) => field.name === 'References')).toEqual({ name: 'References', value: '<root-0@service.example> <orig-1@service.example>' });
    expect(parsed.headers.map((field) => field.name)).not.toContain('Content-Disposition');
  });

  it('reads attachments with their bytes, type, size, disposition and Content-ID', async () => {
    const parsed = await parseInbound(normalMessage);
    expect(parsed.attachment_count).toBe(2);
    const pdf = parsed.attachments.find((attachment) => attachment.filename === 'invoice.pdf')!;
    expect(pdf).toMatchObject({ content_type: 'application/pdf', size: PDF_BYTES.length, content_disposition: 'attachment', content_id: null });
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
    expect(parsed).toMatchObject({ from: '', to: [], cc: [], reply_to: [], subject: '', message_id: null, in_reply_to: null, references: [], date: null, attachment_count: 0, parse_error: null });
    expect(parsed.text).toContain('just a body');
  });
});
