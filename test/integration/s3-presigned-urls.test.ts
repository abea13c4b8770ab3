/**
 * Presigned URLs on the local cloud's S3, as S3 enforces them (localstack/cloud/s3/s3-presigned-url.ts,
 * docs/local-cloud/s3.md), made by the product's own S3BlobStore (shared/adapters/aws/s3-blob-store.ts) and used
 * over HTTP as a client uses them:
 * - within its lifetime a URL works; after X-Amz-Date + X-Amz-Expires it is refused 403 AccessDenied
 *   "Request has expired" with S3's XML body (GET and HEAD);
 * - X-Amz-Expires over 604800 (7 days) is refused 400 at use;
 * - a tampered URL (another key, another Content-Type than the signed one) is refused 403
 *   SignatureDoesNotMatch and stores nothing;
 * - what the product answers at the limit: received emails' links last DOWNLOAD_URL_SECONDS (within
 *   S3's bound), and fetching the email again gives freshly signed links (how a client renews an expired one).
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createS3Client } from '#shared/adapters/aws/s3-client';
import { loadConfig } from '#shared/config/config';
import { DOWNLOAD_URL_SECONDS } from '#shared/usecases/inbound/received-emails';
import { UPLOAD_URL_TTL_SECONDS } from '#shared/domain/emails/attachment-upload';
import { MAX_PRESIGNED_URL_SECONDS } from '#localstack/cloud/s3/s3-presigned-url';
import { mxTransport, receivedIds, receivingDomain, senderDomain, waitForReceived } from './harness/inbound';
import { api, newAccount, stack } from './harness/stack';

jest.setTimeout(120_000);

const blobs = () => stack().services.blobs;
const key = (name: string) => `s3-presign-test/${randomUUID()}/${name}`;
const element = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When S3 stops taking the URL: X-Amz-Date + X-Amz-Expires. */
function expiryOf(url: string): number {
  const params = new URL(url).searchParams;
  const date = params.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
  return Date.parse(date) + Number(params.get('X-Amz-Expires')) * 1000;
}

describe('a presigned GET on the local S3', () => {
  it('works within its lifetime, then answers 403 AccessDenied "Request has expired" with S3 XML body', async () => {
    const objectKey = key('report.txt');
    await blobs().put(objectKey, 'within its lifetime', 'text/plain');
    const url = await blobs().presignGet(objectKey, {
      expiresInSeconds: 4,
      downloadName: 'report.txt',
      contentType: 'application/octet-stream',
    });

    const fresh = await fetch(url);
    expect(fresh.status).toBe(200);
    // The link's response-* overrides, as S3 applies them: a download of the type it names.
    expect(fresh.headers.get('content-disposition')).toBe(`attachment; filename="report.txt"; filename*=UTF-8''report.txt`);
    expect(fresh.headers.get('content-type')).toBe('application/octet-stream');
    expect(await fresh.text()).toBe('within its lifetime');

    await sleep(expiryOf(url) + 1_100 - Date.now());
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(expired.headers.get('content-type')).toBe('application/xml');
    const body = await expired.text();
    expect(element(body, 'Code')).toBe('AccessDenied');
    expect(element(body, 'Message')).toBe('Request has expired');
    expect(element(body, 'X-Amz-Expires')).toBe('4');
    expect(element(body, 'Expires')).toBe(new Date(expiryOf(url)).toISOString().replace('.000Z', 'Z'));
    expect(Date.parse(element(body, 'ServerTime')!)).toBeGreaterThan(expiryOf(url));
    expect(element(body, 'RequestId')).toMatch(/^[0-9A-F]{16}$/);
    // HEAD: the same status, no body.
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(403);
    expect(await head.text()).toBe('');
  });

  it('refuses a URL signed two hours ago for one hour (a backdated signing date)', async () => {
    const objectKey = key('old.txt');
    await blobs().put(objectKey, 'x', 'text/plain');
    const s3 = createS3Client(loadConfig(process.env));
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: loadConfig(process.env).mailBucket, Key: objectKey }), {
      expiresIn: 3600,
      signingDate: new Date(Date.now() - 2 * 3600_000),
    });
    const response = await fetch(url);
    expect(response.status).toBe(403);
    expect(element(await response.text(), 'Message')).toBe('Request has expired');
  });

  it('takes X-Amz-Expires of 7 days, and refuses 604801 s with 400 AuthorizationQueryParametersError', async () => {
    const objectKey = key('week.txt');
    await blobs().put(objectKey, 'a week', 'text/plain');
    const url = await blobs().presignGet(objectKey, {
      expiresInSeconds: MAX_PRESIGNED_URL_SECONDS,
      downloadName: 'week.txt',
      contentType: 'text/plain',
    });
    expect((await fetch(url)).status).toBe(200);
    const longer = await fetch(url.replace(`X-Amz-Expires=${MAX_PRESIGNED_URL_SECONDS}`, `X-Amz-Expires=${MAX_PRESIGNED_URL_SECONDS + 1}`));
    expect(longer.status).toBe(400);
    const body = await longer.text();
    expect(element(body, 'Code')).toBe('AuthorizationQueryParametersError');
    expect(element(body, 'Message')).toBe('X-Amz-Expires must be less than a week (in seconds) that is; 604800');
  });

  it('refuses a URL whose key was changed: 403 SignatureDoesNotMatch', async () => {
    const dir = `s3-presign-test/${randomUUID()}`;
    await blobs().put(`${dir}/mine.txt`, 'mine', 'text/plain');
    await blobs().put(`${dir}/theirs.txt`, 'theirs', 'text/plain');
    const url = await blobs().presignGet(`${dir}/mine.txt`, { expiresInSeconds: 60, downloadName: 'mine.txt', contentType: 'text/plain' });
    expect((await fetch(url)).status).toBe(200);
    const tampered = await fetch(url.replace('/mine.txt?', '/theirs.txt?'));
    expect(tampered.status).toBe(403);
    expect(element(await tampered.text(), 'Code')).toBe('SignatureDoesNotMatch');
  });
});

describe('a presigned PUT on the local S3 (attachment uploads)', () => {
  it('stores the object only when sent as signed: another Content-Type or key is refused 403 SignatureDoesNotMatch', async () => {
    const objectKey = key('upload.pdf');
    const bytes = Buffer.from('%PDF-');
    const presigned = await blobs().presignPut(objectKey, {
      contentType: 'application/pdf',
      contentLength: bytes.length,
      expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
    });

    const otherType = await fetch(presigned.url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: bytes });
    expect(otherType.status).toBe(403);
    expect(element(await otherType.text(), 'Code')).toBe('SignatureDoesNotMatch');
    const otherKey = await fetch(presigned.url.replace('upload.pdf', 'other.pdf'), {
      method: 'PUT',
      headers: presigned.headers,
      body: bytes,
    });
    expect(otherKey.status).toBe(403);
    expect(await blobs().head(objectKey)).toBeNull();

    const sent = await fetch(presigned.url, { method: 'PUT', headers: presigned.headers, body: bytes });
    expect(sent.status).toBe(200);
    expect(await blobs().head(objectKey)).toMatchObject({ size: bytes.length, contentType: 'application/pdf' });
  });
});

describe('the product at the presigned URL limits', () => {
  it("signs uploads for 15 minutes and downloads for 1 hour, both within S3's 7 days", () => {
    expect(UPLOAD_URL_TTL_SECONDS).toBe(900);
    expect(DOWNLOAD_URL_SECONDS).toBe(3600);
    expect(Math.max(UPLOAD_URL_TTL_SECONDS, DOWNLOAD_URL_SECONDS)).toBeLessThanOrEqual(MAX_PRESIGNED_URL_SECONDS);
  });

  it('GET /received-emails/{id}: the raw download link lasts DOWNLOAD_URL_SECONDS; fetching the email again gives a newly signed one that works', async () => {
    const account = await newAccount({ plan: 'pro' });
    const inbox = await receivingDomain(account);
    const sender = await senderDomain();
    const info = await mxTransport().sendMail({
      envelope: { from: `alice@${sender.name}`, to: [inbox.address('links')] },
      from: `alice@${sender.name}`,
      to: inbox.address('links'),
      subject: 'Links',
      text: 'hello',
    });
    const [id] = receivedIds(info.response);
    const first = (await waitForReceived(account, id!, 60_000)).raw as { download_url: string; expires_at: string };
    const params = new URL(first.download_url).searchParams;
    expect(params.get('X-Amz-Expires')).toBe(String(DOWNLOAD_URL_SECONDS));
    expect(Math.abs(Date.parse(first.expires_at) - expiryOf(first.download_url))).toBeLessThan(5_000);
    // Never later than the link's own end (X-Amz-Date is whole seconds, and so is expires_at).
    expect(Date.parse(first.expires_at)).toBeLessThanOrEqual(expiryOf(first.download_url));
    const download = await fetch(first.download_url);
    expect(download.status).toBe(200);
    expect(await download.text()).toContain('Subject: Links');

    // A later fetch: a link signed later, so it lasts later (a client holding an expired link fetches the email again).
    await sleep(1_100);
    const again = await api('GET', `/received-emails/${id}`, { key: account.key });
    const second = again.body.received_email.raw as { download_url: string; expires_at: string };
    expect(expiryOf(second.download_url)).toBeGreaterThan(expiryOf(first.download_url));
    expect(Date.parse(second.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
    expect((await fetch(second.download_url)).status).toBe(200);
  });
});
