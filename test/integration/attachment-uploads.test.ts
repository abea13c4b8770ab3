/**
 * Attachment uploads on the local cloud: POST /attachments gives a presigned S3 PUT URL, the client PUTs
 * the bytes straight to the bucket (never through the API's 6 MB request limit), GET /attachments/{id}
 * sees them, and a send referencing them delivers them byte for byte (resolveAttachments copies them to
 * the email; the send worker's loadAttachments reads them back).
 */
import { createHash, randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { loadConfig } from '#shared/config/config';
import { MAX_ATTACHMENT_BYTES } from '#shared/domain/emails/attachments';
import { AppError } from '#shared/domain/errors';
import { AttachmentUploadRepository } from '#shared/adapters/store/attachment-uploads';
import { loadAttachments, resolveAttachments } from '#shared/usecases/attachments/email-attachments';
import { api, newAccount, sesMessagesFor, stack, waitForStatus, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';

const SANDBOX = 'sandbox.mailservice.dev';
const FROM = `a@${SANDBOX}`;
const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Created {
  id: string;
  url: string;
  headers: Record<string, string>;
  body: any;
}

async function createUpload(account: TestAccount, body: Record<string, unknown>): Promise<Created> {
  const response = await api('POST', '/attachments', { key: account.key, body });
  expect(response.status).toBe(201);
  return { id: response.body.attachment.id, url: response.body.upload.url, headers: response.body.upload.headers, body: response.body };
}

async function put(created: Created, bytes: Buffer): Promise<void> {
  const response = await fetch(created.url, { method: 'PUT', headers: created.headers, body: bytes });
  expect(response.status).toBe(200);
}

/** POST /attachments then PUT the bytes to the presigned URL, as a client does. */
async function upload(account: TestAccount, filename: string, bytes: Buffer, declareSize = true): Promise<string> {
  const created = await createUpload(account, { filename, ...(declareSize ? { size: bytes.length } : {}) });
  await put(created, bytes);
  return created.id;
}

function uploadsRepository(): AttachmentUploadRepository {
  const { services } = stack();
  return new AttachmentUploadRepository({ client: createAwsClients(loadConfig(process.env)).dynamo, name: services.config.tableName });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(AppError);
  return outcome as AppError;
}

// Big files, made once: 3 x 9 MiB (the most that fits in one message with room to spare is ~29 MB).
const files = [0, 1, 2].map(() => randomBytes(9 * MiB));

describe('POST /attachments and GET /attachments/{id}', () => {
  let account: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
    other = await newAccount();
  });

  it('creates an upload: the pending record and a 15-minute presigned PUT to uploads/<account>/<id> on the local S3', async () => {
    const before = Date.now();
    const response = await api('POST', '/attachments', { key: account.key, body: { filename: 'report.pdf', size: 1234 } });
    expect(response.status).toBe(201);
    const { attachment, upload: put } = response.body;
    expect(attachment).toEqual({
      id: expect.stringMatching(/^att_[0-9A-HJKMNP-TV-Z]{26}$/),
      object: 'attachment',
      filename: 'report.pdf',
      content_type: 'application/pdf',
      status: 'pending_upload',
      size: null,
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    const created = Date.parse(attachment.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(attachment.expires_at) - created).toBe(24 * 3600 * 1000);
    expect(put).toEqual({
      url: expect.any(String),
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      expires_at: expect.any(String),
    });
    expect(Date.parse(put.expires_at) - created).toBe(15 * 60 * 1000);

    const url = new URL(put.url);
    const { info } = stack();
    expect(url.origin).toBe(new URL(info.endpoints.s3).origin);
    expect(url.pathname).toBe(`/${stack().services.config.mailBucket}/uploads/${account.id}/${attachment.id}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
  });

  it('validates the file name like inline attachments (blocked and double extensions) and refuses over 10 MB with 413', async () => {
    for (const filename of ['setup.exe', 'invoice.pdf.EXE', 'archive.Js.zip']) {
      const response = await api('POST', '/attachments', { key: account.key, body: { filename } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      expect(response.body.error.details.fields).toEqual([{ field: 'filename', message: expect.stringContaining(`"${filename}"`) }]);
    }
    const big = await api('POST', '/attachments', { key: account.key, body: { filename: 'big.bin', size: MAX_ATTACHMENT_BYTES + 1 } });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({
      code: 'payload_too_large',
      details: { size: MAX_ATTACHMENT_BYTES + 1, max_size: MAX_ATTACHMENT_BYTES },
    });
    const exact = await api('POST', '/attachments', { key: account.key, body: { filename: 'exact.bin', size: MAX_ATTACHMENT_BYTES } });
    expect(exact.status).toBe(201);
  });

  it('needs a key with emails:send or full', async () => {
    expect((await api('POST', '/attachments', { body: { filename: 'a.pdf' } })).status).toBe(401);
    const domainsOnly = await api('POST', '/api-keys', { key: account.key, body: { name: 'domains', scopes: ['domains:write'] } });
    const refused = await api('POST', '/attachments', { key: domainsOnly.body.secret, body: { filename: 'a.pdf' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    const sender = await api('POST', '/api-keys', { key: account.key, body: { name: 'sender', scopes: ['emails:send'] } });
    expect((await api('POST', '/attachments', { key: sender.body.secret, body: { filename: 'a.pdf' } })).status).toBe(201);
  });

  it('shows pending_upload until the PUT, then uploaded with the stored size; 404 for another account and unknown ids', async () => {
    const bytes = randomBytes(200_000);
    const created = await createUpload(account, { name: 'data.csv' });
    const pending = await api('GET', `/attachments/${created.id}`, { key: account.key });
    expect(pending.status).toBe(200);
    expect(pending.body.attachment).toMatchObject({ id: created.id, status: 'pending_upload', size: null, content_type: 'text/csv' });

    await put(created, bytes);
    const uploaded = await api('GET', `/attachments/${created.id}`, { key: account.key });
    expect(uploaded.body.attachment).toMatchObject({ id: created.id, status: 'uploaded', size: bytes.length, filename: 'data.csv' });
    expect(sha256(await stack().services.blobs.get(`uploads/${account.id}/${created.id}`))).toBe(sha256(bytes));

    for (const [key, id] of [
      [other.key, created.id],
      [account.key, 'att_01JD3QZ8X9K2M4N6P8R0S2T4V6'],
      [account.key, 'nonsense'],
    ] as const) {
      const response = await api('GET', `/attachments/${id}`, { key });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it("lets a key limited to a tenant see its tenant's uploads only (the one visibility rule); account-wide keys see all of the account's", async () => {
    const platform = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const [acme, globex] = [await createTenant(platform, {}, 'acme'), await createTenant(platform, {}, 'globex')];
    const keyOf = async (tenant: string) =>
      (await api('POST', '/api-keys', { key: platform.key, body: { name: tenant, scopes: ['emails:send'], tenant } })).body
        .secret as string;
    const acmeKey = await keyOf(acme.external_id);
    const globexKey = await keyOf(globex.external_id);
    const acmeUpload = (await api('POST', '/attachments', { key: acmeKey, body: { filename: 'acme.pdf', size: 10 } })).body.attachment
      .id as string;
    const accountUpload = (await api('POST', '/attachments', { key: platform.key, body: { filename: 'all.pdf', size: 10 } })).body
      .attachment.id as string;
    const status = async (key: string, id: string) => (await api('GET', `/attachments/${id}`, { key })).status;
    expect(await status(acmeKey, acmeUpload)).toBe(200);
    expect(await status(platform.key, acmeUpload)).toBe(200);
    expect(await status(platform.key, accountUpload)).toBe(200);
    expect(await status(globexKey, acmeUpload)).toBe(404);
    expect(await status(acmeKey, accountUpload)).toBe(404);
    expect(await status(other.key, acmeUpload)).toBe(404);

    // The same rule when sending: a tenant's key can attach its own tenant's uploads only.
    const bytes = Buffer.from('%PDF-1.4 acme');
    const created = await api('POST', '/attachments', { key: acmeKey, body: { filename: 'sent.pdf', size: bytes.length } });
    await put(
      { id: created.body.attachment.id, url: created.body.upload.url, headers: created.body.upload.headers, body: created.body },
      bytes,
    );
    const sendWith = (key: string, tenant: string) =>
      api('POST', '/emails', {
        key,
        body: {
          from: FROM,
          to: platform.email,
          subject: 's',
          text: 't',
          tenant,
          attachments: [{ attachment_id: created.body.attachment.id }],
        },
      });
    const refused = await sendWith(globexKey, globex.external_id);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.fields).toEqual([
      { field: 'attachments.0.attachment_id', message: expect.stringContaining('no attachment') },
    ]);
    expect((await sendWith(acmeKey, acme.external_id)).status).toBe(200);
    expect((await sendWith(platform.key, globex.external_id)).status).toBe(200);
  });

  it('takes a file larger than a request can carry (9 MiB) straight to the bucket', async () => {
    const id = await upload(account, 'big-0.bin', files[0]!);
    const got = await api('GET', `/attachments/${id}`, { key: account.key });
    expect(got.body.attachment).toMatchObject({ status: 'uploaded', size: 9 * MiB });
  });

  it('reports an undeclared upload over 10 MB as too_large', async () => {
    const id = await upload(account, 'huge.bin', Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 1), false);
    const got = await api('GET', `/attachments/${id}`, { key: account.key });
    expect(got.body.attachment).toMatchObject({ status: 'too_large', size: MAX_ATTACHMENT_BYTES + 1 });
  });
});

describe('resolveAttachments + loadAttachments against the local S3 and table', () => {
  let account: TestAccount;
  let other: TestAccount;
  let ids: string[];
  beforeAll(async () => {
    account = await newAccount();
    other = await newAccount();
    ids = await Promise.all(files.map((bytes, i) => upload(account, `file-${i}.bin`, bytes)));
  });

  const deps = () => ({ blobs: stack().services.blobs, uploads: uploadsRepository() });

  it('copies 3 x 9 MiB uploads and an inline file to the email, and loads them back byte for byte', async () => {
    const emailId = `msg_direct${Date.now()}`;
    const inline = Buffer.from('inline bytes');
    const refs = await resolveAttachments(deps(), account.id, emailId, [
      ...ids.map((attachment_id, i) =>
        i === 1 ? { attachment_id, filename: 'renamed.bin', content_type: 'application/x-test' } : { attachment_id },
      ),
      { filename: 'note.txt', content_type: 'text/plain', data: inline.toString('base64'), size: inline.length },
    ]);
    expect(refs).toEqual([
      { filename: 'file-0.bin', content_type: 'application/octet-stream', size: 9 * MiB, blob_key: `attachments/${emailId}/0` },
      { filename: 'renamed.bin', content_type: 'application/x-test', size: 9 * MiB, blob_key: `attachments/${emailId}/1` },
      { filename: 'file-2.bin', content_type: 'application/octet-stream', size: 9 * MiB, blob_key: `attachments/${emailId}/2` },
      { filename: 'note.txt', content_type: 'text/plain', size: inline.length, blob_key: `attachments/${emailId}/3` },
    ]);
    const loaded = await loadAttachments(stack().services.blobs, refs);
    expect(loaded.map((a) => sha256(a.content))).toEqual([...files, inline].map(sha256));
    expect(loaded.map((a) => a.filename)).toEqual(['file-0.bin', 'renamed.bin', 'file-2.bin', 'note.txt']);
  });

  it('refuses a total over SES 40 MB with 413 (4 x 9 MiB), storing nothing', async () => {
    const emailId = `msg_toolarge${Date.now()}`;
    const error = await refusal(
      resolveAttachments(
        deps(),
        account.id,
        emailId,
        [...ids, ids[0]!].map((attachment_id) => ({ attachment_id })),
      ),
    );
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('40 MB');
    expect(await stack().services.blobs.head(`attachments/${emailId}/0`)).toBeNull();
  });

  it("refuses another account's id and an unknown id like an unknown one (422 naming the field), and a pending upload", async () => {
    const pending = await createUpload(account, { filename: 'later.pdf' });
    const error = await refusal(
      resolveAttachments(deps(), other.id, 'msg_x', [{ attachment_id: ids[0]! }, { attachment_id: 'att_01JD3QZ8X9K2M4N6P8R0S2T4V6' }]),
    );
    expect(error.status).toBe(422);
    expect(error.details!.fields).toEqual([
      { field: 'attachments.0.attachment_id', message: expect.stringContaining('no attachment') },
      { field: 'attachments.1.attachment_id', message: expect.stringContaining('no attachment') },
    ]);
    const notUploaded = await refusal(resolveAttachments(deps(), account.id, 'msg_y', [{ attachment_id: pending.id }]));
    expect(notUploaded.status).toBe(422);
    expect(notUploaded.details!.fields).toEqual([
      { field: 'attachments.0.attachment_id', message: expect.stringContaining('not been uploaded') },
    ]);
  });

  it('refuses an upload over 10 MB with 413', async () => {
    const id = await upload(account, 'huge.bin', Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 2), false);
    const error = await refusal(resolveAttachments(deps(), account.id, 'msg_z', [{ attachment_id: id }]));
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
  });
});

describe('POST /emails with attachment_id references', () => {
  let account: TestAccount;
  let other: TestAccount;
  let ids: string[];
  beforeAll(async () => {
    account = await newAccount();
    other = await newAccount();
    ids = await Promise.all(files.map((bytes, i) => upload(account, `report-${i}.bin`, bytes)));
  });

  it('delivers 3 x 9 MiB uploads and an inline file byte for byte', async () => {
    const inline = Buffer.from('%PDF-1.4 small inline file\n');
    const send = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 'Large files',
        text: 'see attached',
        headers: { 'X-Report': 'q3' },
        attachments: [...ids.map((attachment_id) => ({ attachment_id })), { filename: 'small.pdf', content: inline.toString('base64') }],
      },
    });
    expect(send.status).toBe(200);
    const id = send.body.id as string;
    const email = await waitForStatus(account, id, 'delivered', 60_000);
    expect(email.attachments).toEqual([
      ...ids.map((_, i) => ({ filename: `report-${i}.bin`, content_type: 'application/octet-stream', size: 9 * MiB, content_id: null })),
      { filename: 'small.pdf', content_type: 'application/pdf', size: inline.length, content_id: null },
    ]);
    const [message] = await sesMessagesFor(id);
    const parsed = await simpleParser(message!.raw);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['report-0.bin', 'report-1.bin', 'report-2.bin', 'small.pdf']);
    expect(parsed.attachments.map((a) => sha256(a.content))).toEqual([...files, inline].map(sha256));
  });

  it('refuses attachments over 40 MB in all with 413 payload_too_large', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 'Too much',
        text: 't',
        attachments: [...ids, ids[0]].map((attachment_id) => ({ attachment_id })),
      },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    expect(response.body.error.message).toContain('40 MB');
  });

  it("refuses another account's upload and a pending one with 422 naming attachments.N.attachment_id", async () => {
    const foreign = await api('POST', '/emails', {
      key: other.key,
      body: { from: FROM, to: other.email, subject: 's', text: 't', attachments: [{ attachment_id: ids[0] }] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details.fields).toEqual([
      { field: 'attachments.0.attachment_id', message: expect.stringContaining('no attachment') },
    ]);

    const pending = await createUpload(account, { filename: 'later.pdf' });
    const notUploaded = await api('POST', '/emails', {
      key: account.key,
      body: { from: FROM, to: account.email, subject: 's', text: 't', attachments: [{ attachment_id: pending.id }] },
    });
    expect(notUploaded.status).toBe(422);
    expect(notUploaded.body.error.details.fields).toEqual([
      { field: 'attachments.0.attachment_id', message: expect.stringContaining('not been uploaded') },
    ]);
  });
});

describe('ten files: 10 x 10 MB upload but cannot go in one message; 10 x 2.9 MB can (docs/attachments.md)', () => {
  // One 10 MB buffer made once: every 10 MB upload is this buffer, the 2.9 MB files are distinct slices of it.
  const tenMb = randomBytes(MAX_ATTACHMENT_BYTES);
  const SMALL = 2_900_000;
  const small = Array.from({ length: 10 }, (_, i) => tenMb.subarray(i * 700_000, i * 700_000 + SMALL));
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('accepts ten uploads of 10 MB each (POST /attachments, presigned PUT), and refuses them in one send with 413 naming the 40 MB limit', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(account, `ten-${i}.bin`, tenMb)));
    const seen = await Promise.all(ids.map(async (id) => (await api('GET', `/attachments/${id}`, { key: account.key })).body.attachment));
    expect(seen.map((a) => [a.status, a.size])).toEqual(ids.map(() => ['uploaded', MAX_ATTACHMENT_BYTES]));

    const response = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 'Ten big files',
        text: 'attached',
        attachments: ids.map((attachment_id) => ({ attachment_id })),
      },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    expect(response.body.error.message).toContain('40 MB');
    expect(response.body.error.details).toMatchObject({ attachments_size: 10 * MAX_ATTACHMENT_BYTES, max_message_size: 40_000_000 });
    expect(response.body.error.details.estimated_message_size).toBeGreaterThan(40_000_000);
  });

  it('accepts and delivers ten uploads of 2.9 MB each in one message (under 40 MB encoded)', async () => {
    const ids = await Promise.all(small.map((bytes, i) => upload(account, `part-${i}.bin`, Buffer.from(bytes))));
    const send = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: FROM,
        to: account.email,
        subject: 'Ten files',
        text: 'attached',
        attachments: ids.map((attachment_id) => ({ attachment_id })),
      },
    });
    expect(send.status).toBe(200);
    const id = send.body.id as string;
    const email = await waitForStatus(account, id, 'delivered', 45_000);
    expect(email.attachments).toHaveLength(10);
    const [message] = await sesMessagesFor(id);
    expect(message!.raw.length).toBeLessThan(40_000_000);
    const parsed = await simpleParser(message!.raw);
    expect(parsed.attachments).toHaveLength(10);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(ids.map((_, i) => `part-${i}.bin`));
    expect(parsed.attachments.map((a) => sha256(a.content))).toEqual(small.map(sha256));
  });
});
