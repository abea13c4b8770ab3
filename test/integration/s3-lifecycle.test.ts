/**
 * The mail bucket's lifecycle rule from the synthesized template (infra/constructs/data.ts: `uploads/`
 * expire after 1 day, incomplete multipart uploads there are aborted after 1 day), applied by the local
 * cloud's sweep (localstack/cloud/s3/s3-lifecycle-sweep.ts) to the real local S3, at a `now` days ahead
 * (`POST /_local/s3/lifecycle-sweep`): S3 counts creation + days rounded up to the next midnight UTC.
 * Each sweep here covers this test's keys only (`within`): other files share the cloud and its bucket.
 */
import { randomUUID } from 'node:crypto';
import { CreateMultipartUploadCommand, HeadObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '#shared/adapters/aws/s3-client';
import { loadConfig } from '#shared/config/config';
import { lifecycleDueAt } from '#localstack/cloud/s3/s3-lifecycle-sweep';
import { stack } from './harness/stack';

jest.setTimeout(60_000);

async function sweep(now: Date, within: string): Promise<{ expired: string[]; aborted: string[] }> {
  const response = await fetch(`${stack().apiUrl}/_local/s3/lifecycle-sweep`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: now.toISOString(), within }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { expired: string[]; aborted: string[] };
}

describe('the mail bucket lifecycle rule on the local S3', () => {
  it('expires objects under uploads/ at creation + 1 day rounded to midnight UTC, aborts incomplete multipart uploads there, and keeps the rest', async () => {
    const { services } = stack();
    const config = loadConfig(process.env);
    const s3 = createS3Client(config);
    const bucket = config.mailBucket;
    const run = randomUUID();
    const upload = `uploads/${run}/att_1`;
    const elsewhere = `s3-lifecycle-test/${run}/kept.eml`;
    await services.blobs.put(upload, 'an unused upload', 'application/octet-stream');
    await services.blobs.put(elsewhere, 'not under uploads/', 'message/rfc822');
    const multipart = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: `uploads/${run}/big.bin` }));
    const multipartElsewhere = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: `s3-lifecycle-test/${run}/big.bin` }));
    const created = (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: upload }))).LastModified!;
    const due = lifecycleDueAt(created, 1);
    expect(due.getTime() - created.getTime()).toBeGreaterThan(24 * 3600_000 - 1_000);
    expect(due.toISOString()).toMatch(/T00:00:00\.000Z$/);

    // Younger than the rule: a minute before it is due, all stays.
    expect(await sweep(new Date(due.getTime() - 60_000), `uploads/${run}/`)).toEqual({ expired: [], aborted: [] });
    expect(await services.blobs.head(upload)).not.toBeNull();

    // Due: the upload and the incomplete multipart upload under uploads/ go.
    expect(await sweep(due, `uploads/${run}/`)).toEqual({
      expired: [`${bucket}/${upload}`],
      aborted: [`${bucket}/uploads/${run}/big.bin (${multipart.UploadId})`],
    });
    expect(await services.blobs.head(upload)).toBeNull();
    await expect(
      s3.send(
        new UploadPartCommand({ Bucket: bucket, Key: `uploads/${run}/big.bin`, UploadId: multipart.UploadId, PartNumber: 1, Body: 'x' }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });

    // Outside the rule's prefix nothing expires, however old.
    expect(await sweep(new Date(due.getTime() + 30 * 24 * 3600_000), `s3-lifecycle-test/${run}/`)).toEqual({ expired: [], aborted: [] });
    expect(await services.blobs.head(elsewhere)).not.toBeNull();
    await expect(
      s3.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: `s3-lifecycle-test/${run}/big.bin`,
          UploadId: multipartElsewhere.UploadId,
          PartNumber: 1,
          Body: 'x',
        }),
      ),
    ).resolves.toBeDefined();
  });

  it('refuses a sweep time that is not a date', async () => {
    const response = await fetch(`${stack().apiUrl}/_local/s3/lifecycle-sweep`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ now: 'tomorrow' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation_error');
  });
});
