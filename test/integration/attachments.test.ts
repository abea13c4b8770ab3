/** Attachments on POST /emails: validated, stored in the blob store (not DynamoDB), composed, delivered byte for byte. */
import { createHash, randomBytes } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { api, newAccount, sesMessagesFor, stack, waitFor, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';
const FROM = `a@${SANDBOX}`;

/** A small but real-looking PDF and a 1x1 PNG. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function emailOf(account: TestAccount, id: string) {
  const response = await api('GET', `/emails/${id}`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body.email;
}

async function deliveredMessage(account: TestAccount, id: string): Promise<ParsedMail> {
  await waitFor(async () => (await emailOf(account, id)).status === 'delivered', `email ${id} to be delivered`, 30_000);
  const [message, ...others] = await sesMessagesFor(id);
  expect(others).toHaveLength(0);
  // keepCidLinks: leave `cid:` references in the HTML as sent (mailparser inlines them as data URLs otherwise).
  return simpleParser(message!.raw, { keepCidLinks: true });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('POST /emails with attachments', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('delivers a file attachment and an inline image referenced by cid, and lists their metadata', async () => {
    const send = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 'Your invoice',
        html: '<p>Thanks!</p><img src="cid:logo@acme" alt="Acme">',
        text: 'Thanks!',
        attachments: [
          { filename: 'invoice.pdf', content_type: 'application/pdf', data: PDF.toString('base64') },
          // the aliases, and no content type (derived from the extension)
          { name: 'logo.png', content: PNG.toString('base64'), contentId: 'logo@acme' },
        ],
      },
    });
    expect(send.status).toBe(200);
    const id = send.body.id as string;

    const parsed = await deliveredMessage(account, id);
    expect(parsed.html).toContain('src="cid:logo@acme"');
    expect(parsed.text).toContain('Thanks!');
    expect(parsed.attachments).toHaveLength(2);
    const pdf = parsed.attachments.find((attachment) => attachment.filename === 'invoice.pdf')!;
    const png = parsed.attachments.find((attachment) => attachment.filename === 'logo.png')!;
    expect(pdf).toMatchObject({ contentType: 'application/pdf', contentDisposition: 'attachment' });
    expect(pdf.content.equals(PDF)).toBe(true);
    expect(pdf.cid).toBeUndefined();
    expect(png).toMatchObject({ contentType: 'image/png', contentDisposition: 'inline', cid: 'logo@acme', related: true });
    expect(png.content.equals(PNG)).toBe(true);
    const [raw] = await sesMessagesFor(id);
    expect(raw!.raw).toMatch(/^Content-ID: <logo@acme>\r$/m);
    expect(raw!.raw).toMatch(/^Content-Type: multipart\/related;/m);

    const email = await emailOf(account, id);
    expect(email.attachments).toEqual([
      { filename: 'invoice.pdf', content_type: 'application/pdf', size: PDF.length, content_id: null },
      { filename: 'logo.png', content_type: 'image/png', size: PNG.length, content_id: 'logo@acme' },
    ]);

    // The item keeps metadata only; the bytes are in the blob store, under the account's retention class
    // (free plan: 30 days, docs/retention.md), whose lifecycle rule expires them.
    const { services } = stack();
    const stored = await services.emails.get(id);
    expect(stored!.email.attachments).toEqual([
      { filename: 'invoice.pdf', content_type: 'application/pdf', size: PDF.length, blob_key: `retention/30d/attachments/${id}/0` },
      {
        filename: 'logo.png',
        content_type: 'image/png',
        size: PNG.length,
        content_id: 'logo@acme',
        blob_key: `retention/30d/attachments/${id}/1`,
      },
    ]);
    expect((await services.blobs.get(`retention/30d/attachments/${id}/1`)).equals(PNG)).toBe(true);
  });

  it('delivers a 3 MB attachment intact without putting it in the email item', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const send = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 'Big file',
        text: 'see attached',
        attachments: [{ filename: 'data.bin', data: bytes.toString('base64') }],
      },
    });
    expect(send.status).toBe(200);
    const parsed = await deliveredMessage(account, send.body.id);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]).toMatchObject({ filename: 'data.bin', contentType: 'application/octet-stream', size: bytes.length });
    expect(sha256(parsed.attachments[0]!.content)).toBe(sha256(bytes));
    expect((await emailOf(account, send.body.id)).attachments).toEqual([
      { filename: 'data.bin', content_type: 'application/octet-stream', size: bytes.length, content_id: null },
    ]);
    const stored = await stack().services.emails.get(send.body.id);
    expect(JSON.stringify(stored).length).toBeLessThan(4 * 1024);
  });

  it('shows an empty attachment list on emails sent without attachments', async () => {
    const send = await api('POST', '/emails', { key: account.key, body: { from: FROM, to: account.email, subject: 'plain', text: 't' } });
    expect(send.status).toBe(200);
    expect((await emailOf(account, send.body.id)).attachments).toEqual([]);
  });

  it('refuses a blocked extension with 400 naming attachments.N.filename, double extensions and any case included', async () => {
    for (const filename of ['setup.exe', 'invoice.pdf.EXE', 'archive.Js.zip']) {
      const response = await api('POST', '/emails', {
        key: account.key,
        body: { from: FROM, to: account.email, subject: 's', text: 't', attachments: [{ filename, data: PDF.toString('base64') }] },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      expect(response.body.error.details.fields).toEqual([
        { field: 'attachments.0.filename', message: expect.stringContaining(`"${filename}"`) },
      ]);
    }
  });

  it('names the bad field of the bad attachment', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 's',
        text: 't',
        attachments: [
          { filename: 'ok.pdf', data: PDF.toString('base64') },
          { filename: 'bad.pdf', data: 'not base64!' },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([{ field: 'attachments.1.data', message: expect.stringContaining('base64') }]);
  });

  it('refuses attachments on a scheduled send with 400', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 's',
        text: 't',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
        attachments: [{ filename: 'invoice.pdf', data: PDF.toString('base64') }],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([
      { field: 'attachments', message: 'attachments are not allowed on scheduled sends (the body is stored; attachment bytes are not)' },
    ]);
  });
});
