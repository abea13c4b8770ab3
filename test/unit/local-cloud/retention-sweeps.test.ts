/**
 * What retention deploys and the local cloud enforces: one S3 lifecycle rule per retention class in the
 * synthesized template (read as the local S3's sweeper reads them), and the local DynamoDB TTL sweep's
 * rule for an expired item (localstack/cloud/dynamodb/dynamodb-ttl-sweep.ts) and the tables it sweeps.
 */
import { RETENTION_CLASSES_DAYS } from '#shared/domain/accounts/retention';
import { ttlExpired, ttlTables } from '#localstack/cloud/dynamodb/dynamodb-ttl-sweep';
import { bucketLifecycles } from '#localstack/cloud/template/s3-lifecycle-rules';
import { DeployedStack } from '#localstack/cloud/template/deployed-stack';
import { synthesizedTemplate } from '#localstack/cloud/template/synthesize';
import { sweepLifecycle, type SweepableS3Store } from '#localstack/cloud/s3/s3-lifecycle-sweep';

jest.setTimeout(120_000);

async function deployedStack(): Promise<DeployedStack> {
  const { template } = await synthesizedTemplate();
  return new DeployedStack(template, {
    stackName: 'Mailservice',
    region: 'us-east-1',
    accountId: '000000000000',
    apiUrl: 'http://127.0.0.1:3000',
  });
}

describe('the retention classes in the template', () => {
  it('gives the mail bucket one rule per class: retention/<days>d/ expires after its days', async () => {
    const mail = bucketLifecycles(await deployedStack()).find((bucket) => bucket.rules.some((rule) => rule.prefix === 'uploads/'));
    for (const days of RETENTION_CLASSES_DAYS) {
      expect(mail?.rules).toContainEqual({ id: `retention-${days}d`, prefix: `retention/${days}d/`, expirationDays: days });
    }
  });

  it('expires an object of the 1-day class by the next midnight after a day, and leaves the 30-day class', async () => {
    const mail = bucketLifecycles(await deployedStack()).find((bucket) => bucket.rules.some((rule) => rule.prefix === 'uploads/'))!;
    const created = new Date('2026-11-25T10:00:00.000Z');
    const objects = new Map([
      ['retention/1d/bodies/em_1.json', { lastModified: created }],
      ['retention/30d/bodies/em_2.json', { lastModified: created }],
    ]);
    const deleted: string[] = [];
    const store: SweepableS3Store = {
      hasBucket: (bucket) => bucket === mail.bucket,
      listObjects: () => ({ objects: [...objects].map(([key, object]) => ({ key, ...object })) }),
      incompleteUploads: () => [],
      deleteObject: (_b, key) => {
        deleted.push(key);
        objects.delete(key);
      },
      abortMultipartUpload: () => undefined,
    };
    expect(sweepLifecycle(store, [mail], new Date('2026-11-26T23:59:59.000Z')).expired).toEqual([]);
    expect(sweepLifecycle(store, [mail], new Date('2026-11-27T00:00:00.000Z')).expired).toEqual([
      `${mail.bucket}/retention/1d/bodies/em_1.json`,
    ]);
    expect([...objects.keys()]).toEqual(['retention/30d/bodies/em_2.json']);
  });

  it('sweeps the table by its TTL attribute `ttl` and its key', async () => {
    expect(ttlTables(await deployedStack())).toEqual([expect.objectContaining({ attribute: 'ttl', keyAttributes: ['PK', 'SK'] })]);
  });
});

describe('the local TTL rule (as AWS: howitworks-ttl.html)', () => {
  const now = Date.parse('2026-11-25T12:00:00.000Z') / 1000;

  it('deletes a Number of epoch seconds below now', () => {
    expect(ttlExpired({ N: String(now - 1) }, now)).toBe(true);
    expect(ttlExpired({ N: String(now) }, now)).toBe(false);
    expect(ttlExpired({ N: String(now + 3600) }, now)).toBe(false);
  });

  it('leaves items without a Number ttl, and those more than five years in the past', () => {
    expect(ttlExpired(undefined, now)).toBe(false);
    expect(ttlExpired({ S: String(now - 1) }, now)).toBe(false);
    expect(ttlExpired({ N: String(now - 6 * 365 * 24 * 3600) }, now)).toBe(false);
  });
});
