import {
  attachmentsSchema,
  blockedExtensionOf,
  contentTypeForFilename,
  MAX_ATTACHMENT_BYTES,
  rejectAttachmentsInBatch,
  toPublicAttachment,
  type InlineAttachment,
} from '#shared/domain/emails/attachments';
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { issuesToFields } from '#shared/doors/http/request-validation';

const base = { from: 'a@x.io', to: 'b@y.io', subject: 's', text: 't' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const file = (extra: Record<string, unknown> = {}) => ({ filename: 'report.pdf', data: b64('%PDF-1.4 hello'), ...extra });

/** The fields of a failed parse, as the HTTP layer reports them. */
function fieldsOf(input: unknown, schema: { safeParse(input: unknown): any } = sendRequestSchema) {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return issuesToFields(result.error.issues);
}

describe('attachments schema', () => {
  it('accepts the canonical fields and every alias, canonical names winning', () => {
    const parsed = sendRequestSchema.parse({
      ...base,
      attachments: [
        { filename: 'a.pdf', content_type: 'application/pdf', data: b64('A'), content_id: 'one' },
        { name: 'b.png', contentType: 'image/png', content: b64('BB'), contentId: 'two@x' },
        { filename: 'wins.txt', name: 'loses.txt', data: b64('c'), content: b64('loses') },
      ],
    });
    expect(parsed.attachments).toEqual([
      { filename: 'a.pdf', content_type: 'application/pdf', data: b64('A'), size: 1, content_id: 'one' },
      { filename: 'b.png', content_type: 'image/png', data: b64('BB'), size: 2, content_id: 'two@x' },
      { filename: 'wins.txt', content_type: 'text/plain', data: b64('c'), size: 1 },
    ]);
  });

  it('is optional, and an empty list is fine', () => {
    expect(sendRequestSchema.parse(base).attachments).toBeUndefined();
    expect(sendRequestSchema.parse({ ...base, attachments: [] }).attachments).toEqual([]);
  });

  it('validates data as base64 and computes the decoded size', () => {
    for (const text of ['a', 'ab', 'abc', 'abcd', 'hello world!', '\u00e9\u00e8']) {
      const [parsed] = attachmentsSchema.parse([file({ data: b64(text) })]) as InlineAttachment[];
      expect(parsed!.size).toBe(Buffer.byteLength(text));
    }
    // unpadded and line-wrapped (MIME style) base64 are accepted; white space is dropped
    expect(attachmentsSchema.parse([file({ data: 'YWI' })])[0]).toMatchObject({ data: 'YWI', size: 2 });
    expect(attachmentsSchema.parse([file({ data: 'YWJj\r\nZGVm\n' })])[0]).toMatchObject({ data: 'YWJjZGVm', size: 6 });
    for (const data of ['not base64!', 'YWJjZ', 'YW=', 'Y===', 'YWJj=ZGVm', 'YW_t', 'data:image/png;base64,iVBO']) {
      expect(fieldsOf([file({ data })], attachmentsSchema)).toEqual([{ field: '0.data', message: expect.stringContaining('base64') }]);
    }
    expect(fieldsOf([file({ data: '' })], attachmentsSchema)).toEqual([{ field: '0.data', message: expect.stringContaining('empty') }]);
    expect(fieldsOf([file({ data: 42 })], attachmentsSchema)).toEqual([{ field: '0.data', message: 'data (or content) must be a string' }]);
    expect(fieldsOf([{ filename: 'x.txt' }], attachmentsSchema)).toEqual([{ field: '0.data', message: 'data (or content) is required' }]);
  });

  it('allows exactly 10 MB decoded and refuses 10 MB + 1 byte', () => {
    const exact = Buffer.alloc(MAX_ATTACHMENT_BYTES, 0x41).toString('base64');
    const [parsed] = attachmentsSchema.parse([file({ data: exact })]) as InlineAttachment[];
    expect(parsed!.size).toBe(MAX_ATTACHMENT_BYTES);
    const over = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x41).toString('base64');
    expect(fieldsOf({ ...base, attachments: [file(), file({ data: over })] })).toEqual([
      { field: 'attachments.1.data', message: expect.stringContaining(`${MAX_ATTACHMENT_BYTES + 1} bytes decoded`) },
    ]);
  });

  it('refuses blocked extensions in every case variant, naming the file and the extension', () => {
    for (const extension of ['exe', 'bat', 'cmd', 'com', 'scr', 'js', 'vbs', 'dll']) {
      const variants = [
        extension,
        extension.toUpperCase(),
        extension[0]!.toUpperCase() + extension.slice(1),
        extension.slice(0, -1) + extension.slice(-1).toUpperCase(),
      ];
      for (const variant of variants) {
        const name = `setup.${variant}`;
        const [field] = fieldsOf({ ...base, attachments: [file({ filename: name })] });
        expect(field).toEqual({ field: 'attachments.0.filename', message: expect.stringContaining(`"${name}"`) });
        expect(field!.message).toContain(`.${extension}`);
      }
    }
  });

  it('refuses a blocked extension anywhere after the first dot (double extensions)', () => {
    for (const [name, blocked] of [
      ['invoice.pdf.exe', '.exe'],
      ['invoice.PDF.Exe', '.exe'],
      ['archive.exe.zip', '.exe'],
      ['invoice.exe.pdf', '.exe'],
      ['a.b.c.js.txt', '.js'],
      ['run.exe.', '.exe'],
      ['run.exe  ', '.exe'],
      ['run.exe . ', '.exe'],
      ['invoice.pdf .scr', '.scr'],
      ['.bat', '.bat'],
    ] as const) {
      expect(blockedExtensionOf(name)).toBe(blocked);
      expect(fieldsOf([file({ filename: name })], attachmentsSchema)).toEqual([
        { field: '0.filename', message: expect.stringContaining(blocked) },
      ]);
    }
    for (const name of [
      'report.pdf',
      'exe',
      'exe.pdf',
      'my.execution.log',
      'script.json',
      'notes.jsx',
      'scr-shot.png',
      'docs.combined.zip',
      'dllnote.txt',
    ]) {
      expect(blockedExtensionOf(name)).toBeNull();
      expect(attachmentsSchema.safeParse([file({ filename: name })]).success).toBe(true);
    }
  });

  it('validates file names: 1-255 characters, no paths, no control or bidi characters', () => {
    expect(attachmentsSchema.safeParse([file({ filename: `${'a'.repeat(251)}.pdf` })]).success).toBe(true);
    expect(attachmentsSchema.safeParse([file({ filename: 'résumé 2024 (final).pdf' })]).success).toBe(true);
    for (const filename of [
      '',
      '   ',
      `${'a'.repeat(252)}.pdf`,
      '../etc/passwd',
      'dir/file.txt',
      'C:\\temp\\a.pdf',
      'a\r\nb.txt',
      'tab\there.txt',
      'nul\u0000.txt',
      'photo\u202egnp.txt',
      '.',
      '..',
    ]) {
      expect(fieldsOf([file({ filename })], attachmentsSchema).map((f) => f.field)).toEqual(['0.filename']);
    }
    expect(fieldsOf([{ data: b64('x') }], attachmentsSchema)).toEqual([{ field: '0.filename', message: 'filename (or name) is required' }]);
  });

  it('derives the content type from the last extension when missing, validates and normalises given ones', () => {
    const typeOf = (extra: Record<string, unknown>) => attachmentsSchema.parse([file(extra)])[0]!.content_type;
    expect(typeOf({ filename: 'a.PDF' })).toBe('application/pdf');
    expect(typeOf({ filename: 'logo.png' })).toBe('image/png');
    expect(typeOf({ filename: 'photo.tar.jpeg' })).toBe('image/jpeg');
    expect(typeOf({ filename: 'data.csv' })).toBe('text/csv');
    expect(typeOf({ filename: 'noext' })).toBe('application/octet-stream');
    expect(typeOf({ filename: 'weird.xyz' })).toBe('application/octet-stream');
    expect(contentTypeForFilename('x.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(typeOf({ content_type: 'Application/PDF' })).toBe('application/pdf');
    expect(typeOf({ content_type: 'text/csv; charset=utf-8' })).toBe('text/csv; charset=utf-8');
    expect(typeOf({ content_type: 'application/vnd.api+json' })).toBe('application/vnd.api+json');
    for (const content_type of [
      'pdf',
      'application/',
      '/pdf',
      'text/plain\r\nBcc: x@y.io',
      'a/b/c',
      'text/plain; charset',
      'multipart/mixed',
      'image/png extra',
    ]) {
      expect(fieldsOf([file({ content_type })], attachmentsSchema).map((f) => f.field)).toEqual(['0.content_type']);
    }
  });

  it('validates content_id and refuses duplicates', () => {
    expect(attachmentsSchema.parse([file({ content_id: 'logo.v2@acme-mail_1' })])[0]!.content_id).toBe('logo.v2@acme-mail_1');
    for (const content_id of ['', '<logo>', 'has space', 'a'.repeat(256), 'cid:logo', 'ümlaut']) {
      expect(fieldsOf([file({ content_id })], attachmentsSchema).map((f) => f.field)).toEqual(['0.content_id']);
    }
    expect(fieldsOf([file({ content_id: 'logo' }), file(), file({ content_id: 'logo' })], attachmentsSchema)).toEqual([
      { field: '2.content_id', message: expect.stringContaining('"logo"') },
    ]);
  });

  it('allows at most 10 attachments', () => {
    expect(attachmentsSchema.safeParse(Array.from({ length: 10 }, () => file())).success).toBe(true);
    expect(fieldsOf({ ...base, attachments: Array.from({ length: 11 }, () => file()) })).toEqual([
      { field: 'attachments', message: 'at most 10 attachments' },
    ]);
    expect(fieldsOf({ ...base, attachments: 'a.pdf' }).map((f) => f.field)).toEqual(['attachments']);
    expect(fieldsOf({ ...base, attachments: ['a.pdf'] }).map((f) => f.field)).toEqual(['attachments.0']);
  });

  it('reports every bad field of every attachment with its path', () => {
    const fields = fieldsOf({ ...base, attachments: [file(), { name: 'x.exe', contentType: 'bad', content: '***' }] });
    expect(fields.map((f) => f.field).sort()).toEqual(['attachments.1.content_type', 'attachments.1.data', 'attachments.1.filename']);
  });

  it('refuses attachments on a scheduled send (rule 8) but not an empty list', () => {
    expect(fieldsOf({ ...base, scheduled_at: '2030-01-01T09:00:00Z', attachments: [file()] })).toEqual([
      { field: 'attachments', message: 'attachments are not allowed on scheduled sends (the body is stored; attachment bytes are not)' },
    ]);
    expect(fieldsOf({ ...base, scheduledAt: '2030-01-01T09:00:00Z', attachments: [file()] }).map((f) => f.field)).toEqual(['attachments']);
    expect(sendRequestSchema.safeParse({ ...base, scheduled_at: '2030-01-01T09:00:00Z', attachments: [] }).success).toBe(true);
  });

  it('gives batch items with attachments a problem message', () => {
    expect(rejectAttachmentsInBatch({ ...base })).toBeNull();
    expect(rejectAttachmentsInBatch({ ...base, attachments: [] })).toBeNull();
    expect(rejectAttachmentsInBatch('not an object')).toBeNull();
    expect(rejectAttachmentsInBatch({ ...base, attachments: [file()] })).toMatch(/not allowed in batch/);
    expect(rejectAttachmentsInBatch(sendRequestSchema.parse({ ...base, attachments: [file()] }))).toMatch(/not allowed in batch/);
  });

  it('shows metadata without the blob key in the public record', () => {
    expect(toPublicAttachment({ filename: 'a.pdf', content_type: 'application/pdf', size: 3, blob_key: 'attachments/msg_1/0' })).toEqual({
      filename: 'a.pdf',
      content_type: 'application/pdf',
      size: 3,
      content_id: null,
    });
  });
});
