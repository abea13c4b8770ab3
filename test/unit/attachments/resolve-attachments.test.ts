/** resolveAttachments with in-memory fakes: refusals store nothing; references are copied; inline bytes are put. */
import type { AttachmentInput } from '#shared/domain/emails/attachments';
import type { AttachmentUpload } from '#shared/domain/emails/attachment-upload';
import { AppError } from '#shared/domain/errors';
import type { BlobInfo } from '#shared/ports/blobs';
import { resolveAttachments, storeAttachments } from '#shared/usecases/attachments/email-attachments';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const ACC = 'acc_01JD3QZ8X9K2M4N6P8R0S2T4V6';
const ids = {
  a: 'att_01JD3QZ8X9K2M4N6P8R0S2T4VA',
  b: 'att_01JD3QZ8X9K2M4N6P8R0S2T4VB',
  pending: 'att_01JD3QZ8X9K2M4N6P8R0S2T4VC',
  old: 'att_01JD3QZ8X9K2M4N6P8R0S2T4VD',
  big: 'att_01JD3QZ8X9K2M4N6P8R0S2T4VE',
};

function upload(id: string, extra: Partial<AttachmentUpload> = {}): AttachmentUpload {
  return {
    id,
    account_id: ACC,
    filename: `${id}.pdf`,
    content_type: 'application/pdf',
    declared_size: null,
    status: 'pending_upload',
    size: null,
    blob_key: `uploads/${ACC}/${id}`,
    created_at: '2025-06-01T11:00:00.000Z',
    upload_expires_at: '2025-06-01T11:15:00.000Z',
    expires_at: '2025-06-02T11:00:00.000Z',
    ...extra,
  };
}

function fakes() {
  const records = new Map<string, AttachmentUpload>([
    [ids.a, upload(ids.a)],
    [ids.b, upload(ids.b, { filename: 'b.csv', content_type: 'text/csv' })],
    [ids.pending, upload(ids.pending)],
    [ids.old, upload(ids.old, { expires_at: '2025-06-01T11:59:59.000Z' })],
    [ids.big, upload(ids.big)],
  ]);
  const objects = new Map<string, BlobInfo>([
    [`uploads/${ACC}/${ids.a}`, { size: 9_000_000, etag: '"a"' }],
    [`uploads/${ACC}/${ids.b}`, { size: 5, etag: '"b"' }],
    [`uploads/${ACC}/${ids.old}`, { size: 5, etag: '"old"' }],
    [`uploads/${ACC}/${ids.big}`, { size: 10 * 1024 * 1024 + 1, etag: '"big"' }],
  ]);
  const writes: string[] = [];
  const copies: [string, string, string | undefined][] = [];
  const deps = {
    clock: { now: () => NOW },
    uploads: { get: async (accountId: string, id: string) => (accountId === ACC ? (records.get(id) ?? null) : null) },
    blobs: {
      put: async (key: string) => void writes.push(key),
      head: async (key: string) => objects.get(key) ?? null,
      copy: async (from: string, to: string, options?: { ifMatch?: string }) => void copies.push([from, to, options?.ifMatch]),
    },
  };
  return { deps, writes, copies };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const inline = (filename: string, bytes: string): AttachmentInput => ({
  filename,
  content_type: 'text/plain',
  data: Buffer.from(bytes).toString('base64'),
  size: Buffer.byteLength(bytes),
});

describe('resolveAttachments', () => {
  it('puts inline bytes and copies uploads (the checked version) to the email, in request order, with overrides', async () => {
    const { deps, writes, copies } = fakes();
    const refs = await resolveAttachments(deps, ACC, 'msg_1', [
      inline('a.txt', 'hello'),
      { attachment_id: ids.a },
      { attachment_id: ids.b, filename: 'renamed.csv', content_id: 'c1' },
    ]);
    expect(refs).toEqual([
      { filename: 'a.txt', content_type: 'text/plain', size: 5, blob_key: 'attachments/msg_1/0' },
      { filename: `${ids.a}.pdf`, content_type: 'application/pdf', size: 9_000_000, blob_key: 'attachments/msg_1/1' },
      { filename: 'renamed.csv', content_type: 'text/csv', size: 5, content_id: 'c1', blob_key: 'attachments/msg_1/2' },
    ]);
    expect(writes).toEqual(['attachments/msg_1/0']);
    expect(copies.sort()).toEqual([
      [`uploads/${ACC}/${ids.a}`, 'attachments/msg_1/1', '"a"'],
      [`uploads/${ACC}/${ids.b}`, 'attachments/msg_1/2', '"b"'],
    ]);
  });

  it('refuses unknown, foreign, expired and not-yet-uploaded ids with one 422 naming each field, storing nothing', async () => {
    const { deps, writes, copies } = fakes();
    const error = await refusal(
      resolveAttachments(deps, ACC, 'msg_1', [
        inline('a.txt', 'x'),
        { attachment_id: 'att_01JD3QZ8X9K2M4N6P8R0S2T4VZ' },
        { attachment_id: ids.old },
        { attachment_id: ids.pending },
        { attachment_id: ids.a },
      ]),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(error.details!.fields).toEqual([
      { field: 'attachments.1.attachment_id', message: expect.stringContaining('no attachment') },
      { field: 'attachments.2.attachment_id', message: expect.stringContaining('no attachment') },
      { field: 'attachments.3.attachment_id', message: expect.stringContaining('not been uploaded') },
    ]);
    // Another account asking for an existing id gets the same answer as for an unknown one.
    const foreign = await refusal(resolveAttachments(deps, 'acc_OTHER', 'msg_2', [{ attachment_id: ids.a }]));
    expect(foreign.details!.fields).toEqual([{ field: 'attachments.0.attachment_id', message: expect.stringContaining('no attachment') }]);
    expect(writes).toEqual([]);
    expect(copies).toEqual([]);
  });

  it('refuses an upload over 10 MB with 413 payload_too_large', async () => {
    const { deps, copies } = fakes();
    const error = await refusal(resolveAttachments(deps, ACC, 'msg_1', [{ attachment_id: ids.a }, { attachment_id: ids.big }]));
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.details).toMatchObject({
      fields: [{ field: 'attachments.1.attachment_id', message: expect.stringContaining('10 MB') }],
      max_size: 10 * 1024 * 1024,
    });
    expect(copies).toEqual([]);
  });

  it('refuses attachments that would make the message larger than 40 MB with 413, saying so', async () => {
    const { deps, copies } = fakes();
    const five = [0, 1, 2, 3, 4].map(() => ({ attachment_id: ids.a })); // 5 x 9 MB
    const error = await refusal(resolveAttachments(deps, ACC, 'msg_1', five));
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toMatch(/45000000 bytes .* at most 40 MB .*SES/);
    expect(error.details).toMatchObject({ attachments_size: 45_000_000, max_message_size: 40_000_000 });
    expect(copies).toEqual([]);
    // Three of them fit.
    await expect(resolveAttachments(deps, ACC, 'msg_1', five.slice(0, 3))).resolves.toHaveLength(3);
  });

  it('refuses references where no upload repository is wired (storeAttachments), inline still works', async () => {
    const { deps } = fakes();
    const error = await refusal(storeAttachments(deps.blobs, 'msg_1', [{ attachment_id: ids.a }]));
    expect(error.status).toBe(422);
    await expect(storeAttachments(deps.blobs, 'msg_1', [inline('a.txt', 'x')])).resolves.toEqual([
      { filename: 'a.txt', content_type: 'text/plain', size: 1, blob_key: 'attachments/msg_1/0' },
    ]);
  });
});
