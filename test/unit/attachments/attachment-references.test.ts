/** The reference form of send attachments, the upload request schema, the SES size rule and presigned PUT URLs. */
import { S3Client } from '@aws-sdk/client-s3';
import {
  attachmentsSchema,
  estimateMessageBytes,
  isAttachmentReference,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_BYTES_PER_MESSAGE,
  SES_MAX_MESSAGE_BYTES,
} from '#shared/domain/emails/attachments';
import {
  createAttachmentUploadSchema,
  isAttachmentId,
  newAttachmentId,
  toPublicAttachmentUpload,
  uploadBlobKey,
} from '#shared/domain/emails/attachment-upload';
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { S3BlobStore } from '#shared/adapters/aws/s3-blob-store';
import { issuesToFields } from '#shared/doors/http/request-validation';

const base = { from: 'a@x.io', to: 'b@y.io', subject: 's', text: 't' };
const ID = 'att_01JD3QZ8X9K2M4N6P8R0S2T4V6';
const b64 = (text: string) => Buffer.from(text).toString('base64');

function fieldsOf(input: unknown, schema: { safeParse(input: unknown): any } = sendRequestSchema) {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return issuesToFields(result.error.issues);
}

describe('attachments: the attachment_id reference form', () => {
  it('accepts references next to inline files, with optional overrides and the attachmentId alias', () => {
    const parsed = sendRequestSchema.parse({
      ...base,
      attachments: [
        { filename: 'a.pdf', data: b64('A') },
        { attachment_id: ID },
        { attachmentId: ID, name: 'renamed.pdf', contentType: 'application/pdf', contentId: 'logo@x' },
      ],
    });
    expect(parsed.attachments).toEqual([
      { filename: 'a.pdf', content_type: 'application/pdf', data: b64('A'), size: 1 },
      { attachment_id: ID },
      { attachment_id: ID, filename: 'renamed.pdf', content_type: 'application/pdf', content_id: 'logo@x' },
    ]);
    expect(parsed.attachments!.map(isAttachmentReference)).toEqual([false, true, true]);
  });

  it('validates the id and the overrides with the inline rules, naming each field', () => {
    expect(fieldsOf({ ...base, attachments: [{ attachment_id: 'msg_01JD3QZ8X9K2M4N6P8R0S2T4V6' }] })).toEqual([
      { field: 'attachments.0.attachment_id', message: expect.stringContaining('POST /attachments') },
    ]);
    expect(fieldsOf({ ...base, attachments: [{ attachment_id: 42 }] })).toEqual([
      { field: 'attachments.0.attachment_id', message: 'attachment_id must be a string' },
    ]);
    const [blocked] = fieldsOf({
      ...base,
      attachments: [
        { filename: 'ok.pdf', data: b64('x') },
        { attachment_id: ID, filename: 'invoice.pdf.exe' },
      ],
    });
    expect(blocked).toEqual({ field: 'attachments.1.filename', message: expect.stringContaining('.exe') });
    expect(fieldsOf({ ...base, attachments: [{ attachment_id: ID, content_type: 'multipart/mixed' }] }).map((f) => f.field)).toEqual([
      'attachments.0.content_type',
    ]);
    expect(fieldsOf({ ...base, attachments: [{ attachment_id: ID, content_id: '<x>' }] }).map((f) => f.field)).toEqual([
      'attachments.0.content_id',
    ]);
  });

  it('refuses data and attachment_id together', () => {
    expect(fieldsOf({ ...base, attachments: [{ attachment_id: ID, data: b64('x') }] })).toEqual([
      { field: 'attachments.0.data', message: expect.stringContaining('not both') },
    ]);
  });

  it('counts references in the 10-file limit and the content_id uniqueness rule', () => {
    expect(attachmentsSchema.safeParse(Array.from({ length: 10 }, () => ({ attachment_id: ID }))).success).toBe(true);
    expect(fieldsOf({ ...base, attachments: Array.from({ length: 11 }, () => ({ attachment_id: ID })) })).toEqual([
      { field: 'attachments', message: 'at most 10 attachments' },
    ]);
    expect(
      fieldsOf(
        [
          { attachment_id: ID, content_id: 'c' },
          { filename: 'a.png', data: b64('x'), content_id: 'c' },
        ],
        attachmentsSchema,
      ),
    ).toEqual([{ field: '1.content_id', message: expect.stringContaining('"c"') }]);
  });

  it('is refused on scheduled sends like inline attachments', () => {
    expect(fieldsOf({ ...base, scheduled_at: '2030-01-01T09:00:00Z', attachments: [{ attachment_id: ID }] }).map((f) => f.field)).toEqual([
      'attachments',
    ]);
  });
});

describe('POST /attachments body', () => {
  it('validates the file name like inline attachments and derives the content type', () => {
    expect(createAttachmentUploadSchema.parse({ filename: 'report.PDF' })).toEqual({
      filename: 'report.PDF',
      content_type: 'application/pdf',
      size: null,
    });
    expect(createAttachmentUploadSchema.parse({ name: 'data.bin', contentType: 'Text/CSV', size: 12 })).toEqual({
      filename: 'data.bin',
      content_type: 'text/csv',
      size: 12,
    });
    expect(fieldsOf({ filename: 'invoice.pdf.exe' }, createAttachmentUploadSchema)).toEqual([
      { field: 'filename', message: expect.stringContaining('.exe') },
    ]);
    expect(fieldsOf({ filename: '../x.pdf' }, createAttachmentUploadSchema).map((f) => f.field)).toEqual(['filename']);
    expect(fieldsOf({}, createAttachmentUploadSchema)).toEqual([{ field: 'filename', message: 'filename (or name) is required' }]);
    for (const size of [0, -1, 1.5, '10'])
      expect(fieldsOf({ filename: 'a.pdf', size }, createAttachmentUploadSchema).map((f) => f.field)).toEqual(['size']);
  });

  it('makes att_ ids, account-scoped keys and the public record', () => {
    const id = newAttachmentId(Date.parse('2025-01-01T00:00:00Z'));
    expect(isAttachmentId(id)).toBe(true);
    expect(isAttachmentId('att_x')).toBe(false);
    expect(uploadBlobKey('acc_1', id)).toBe(`uploads/acc_1/${id}`);
    expect(
      toPublicAttachmentUpload({
        id,
        account_id: 'acc_1',
        filename: 'a.pdf',
        content_type: 'application/pdf',
        declared_size: null,
        status: 'pending_upload',
        size: null,
        blob_key: uploadBlobKey('acc_1', id),
        created_at: '2025-01-01T00:00:00.000Z',
        upload_expires_at: '2025-01-01T00:15:00.000Z',
        expires_at: '2025-01-02T00:00:00.000Z',
      }),
    ).toEqual({
      id,
      object: 'attachment',
      filename: 'a.pdf',
      content_type: 'application/pdf',
      status: 'pending_upload',
      size: null,
      created_at: '2025-01-01T00:00:00.000Z',
      expires_at: '2025-01-02T00:00:00.000Z',
    });
  });
});

describe('the message size rule (SES: 40 MB per raw message)', () => {
  const MiB = 1024 * 1024;
  it('estimates the base64 MIME size of the files', () => {
    // 3 bytes -> 4 characters, lines of 76 + CRLF
    const estimate = estimateMessageBytes([9 * MiB]) - estimateMessageBytes([]);
    expect(estimate).toBeGreaterThan((9 * MiB * 4) / 3);
    expect(estimate).toBeLessThan(((9 * MiB * 4) / 3) * (78 / 76) + 4096);
  });

  it('fits 3 x 9 MiB and 2 x 10 MB + 9 MB, not 4 x 9 MiB or 3 x 10 MiB; about 29 MB in all', () => {
    expect(estimateMessageBytes([9 * MiB, 9 * MiB, 9 * MiB])).toBeLessThanOrEqual(SES_MAX_MESSAGE_BYTES);
    expect(estimateMessageBytes([10e6, 10e6, 9e6])).toBeLessThanOrEqual(SES_MAX_MESSAGE_BYTES);
    expect(estimateMessageBytes([9 * MiB, 9 * MiB, 9 * MiB, 9 * MiB])).toBeGreaterThan(SES_MAX_MESSAGE_BYTES);
    expect(estimateMessageBytes([MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_BYTES])).toBeGreaterThan(SES_MAX_MESSAGE_BYTES);
    expect(MAX_ATTACHMENT_BYTES_PER_MESSAGE).toBeGreaterThan(29_000_000);
    expect(MAX_ATTACHMENT_BYTES_PER_MESSAGE).toBeLessThan(29_300_000);
    expect(estimateMessageBytes([MAX_ATTACHMENT_BYTES_PER_MESSAGE])).toBeLessThanOrEqual(SES_MAX_MESSAGE_BYTES);
    expect(estimateMessageBytes([MAX_ATTACHMENT_BYTES_PER_MESSAGE + 1])).toBeGreaterThan(SES_MAX_MESSAGE_BYTES);
    // The bodies count too.
    expect(estimateMessageBytes([MAX_ATTACHMENT_BYTES_PER_MESSAGE - 1000], 100_000)).toBeGreaterThan(SES_MAX_MESSAGE_BYTES);
  });
});

describe('S3BlobStore.presignPut', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' };

  it('signs content type and length, expires as asked, and carries no empty-body checksum (AWS, virtual-hosted)', async () => {
    const store = new S3BlobStore(new S3Client({ region: 'eu-west-1', credentials }), 'mail-bucket-123');
    const put = await store.presignPut('uploads/acc_1/att_1', {
      contentType: 'application/pdf',
      contentLength: 1234,
      expiresInSeconds: 900,
    });
    const url = new URL(put.url);
    expect(url.origin).toBe('https://mail-bucket-123.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/uploads/acc_1/att_1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('session');
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    expect(put.headers).toEqual({ 'Content-Type': 'application/pdf' });
  });

  it('is path-style on an endpoint override (local cloud), content type signed even without a size', async () => {
    const store = new S3BlobStore(
      new S3Client({ region: 'us-east-1', credentials, endpoint: 'http://127.0.0.1:4566', forcePathStyle: true }),
      'mailservice-mail',
    );
    const url = new URL((await store.presignPut('uploads/acc_1/att_1', { contentType: 'text/csv', expiresInSeconds: 60 })).url);
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:4566/mailservice-mail/uploads/acc_1/att_1');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
  });
});
