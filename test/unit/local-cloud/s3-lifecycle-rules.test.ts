/**
 * The buckets' lifecycle rules as the local cloud reads them from the synthesized template
 * (localstack/cloud/template/s3-lifecycle-rules.ts): the rules it applies, the shapes it refuses at deploy, and
 * S3's due time (creation + days, rounded up to the next midnight UTC). The sweep against the running
 * local S3 is test/integration/s3-lifecycle.test.ts.
 */
import { bucketLifecycles, lifecycleRules } from '#localstack/cloud/template/s3-lifecycle-rules';
import { lifecycleDueAt } from '#localstack/cloud/s3/s3-lifecycle-sweep';
import { DeployedStack } from '#localstack/cloud/template/deployed-stack';
import { synthesizedTemplate } from '#localstack/cloud/template/synthesize';

jest.setTimeout(120_000);

describe('lifecycle rules of the synthesized template', () => {
  it('gives the mail bucket its uploads/ rule: expire after 1 day, abort incomplete multipart uploads after 1 day', async () => {
    const { template } = await synthesizedTemplate();
    const stack = new DeployedStack(template, {
      stackName: 'Mailservice',
      region: 'us-east-1',
      accountId: '000000000000',
      apiUrl: 'http://127.0.0.1:3000',
    });
    const lifecycles = bucketLifecycles(stack);
    const mail = lifecycles.find((bucket) => bucket.rules.some((rule) => rule.prefix === 'uploads/'));
    expect(mail?.rules).toContainEqual({
      id: 'expire-uploads',
      prefix: 'uploads/',
      expirationDays: 1,
      abortIncompleteMultipartUploadDays: 1,
    });
    // The MX listener's shared raw messages (docs/retention.md) and account exports (docs/exports.md) have rules of their own.
    expect(mail?.rules).toContainEqual({ id: 'expire-inbound-raw', prefix: 'inbound/raw/', expirationDays: 30 });
    expect(mail?.rules).toContainEqual({ id: 'expire-exports', prefix: 'exports/', expirationDays: 7 });
  });
});

describe('lifecycleRules', () => {
  const rule = (extra: Record<string, unknown>) => ({ Rules: [{ Id: 'r', Status: 'Enabled', ExpirationInDays: 3, ...extra }] });

  it('reads Prefix, ExpirationInDays and AbortIncompleteMultipartUpload; a rule without Prefix covers the whole bucket', () => {
    expect(lifecycleRules(rule({}), 'B')).toEqual([{ id: 'r', prefix: '', expirationDays: 3 }]);
    expect(lifecycleRules(rule({ Prefix: 'logs/', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 2 } }), 'B')).toEqual([
      { id: 'r', prefix: 'logs/', expirationDays: 3, abortIncompleteMultipartUploadDays: 2 },
    ]);
    expect(lifecycleRules(undefined, 'B')).toEqual([]);
  });

  it('keeps a Disabled rule out, as S3 does', () => {
    expect(lifecycleRules(rule({ Status: 'Disabled' }), 'B')).toEqual([]);
  });

  it('fails the deploy on what the local S3 does not implement, naming it, rather than ignoring it', () => {
    expect(() => lifecycleRules(rule({ Transitions: [{ StorageClass: 'GLACIER', TransitionInDays: 30 }] }), 'LogsBucket')).toThrow(
      /LogsBucket rule r: the local cloud does not implement Transitions/,
    );
    expect(() => lifecycleRules(rule({ TagFilters: [{ Key: 'a', Value: 'b' }] }), 'B')).toThrow(/does not implement TagFilters/);
    expect(() => lifecycleRules(rule({ ObjectSizeGreaterThan: 10 }), 'B')).toThrow(/does not implement ObjectSizeGreaterThan/);
    expect(() => lifecycleRules(rule({ ExpirationDate: '2030-01-01T00:00:00Z' }), 'B')).toThrow(/does not implement ExpirationDate/);
  });

  it('refuses what S3 refuses: days that are not positive integers, a rule without an action, an unknown Status', () => {
    expect(() => lifecycleRules(rule({ ExpirationInDays: 0 }), 'B')).toThrow(/ExpirationInDays must be a positive integer/);
    expect(() => lifecycleRules(rule({ ExpirationInDays: 1.5 }), 'B')).toThrow(/positive integer/);
    expect(() => lifecycleRules({ Rules: [{ Id: 'r', Status: 'Enabled', Prefix: 'x/' }] }, 'B')).toThrow(/needs an action/);
    expect(() => lifecycleRules(rule({ Status: 'On' }), 'B')).toThrow(/Status must be Enabled or Disabled/);
  });
});

describe('lifecycleDueAt (creation + days, rounded up to the next midnight UTC)', () => {
  it('follows the example of AWS: created 2014-01-15 10:30 UTC with 3 days is due 2014-01-19 00:00 UTC', () => {
    expect(lifecycleDueAt(new Date('2014-01-15T10:30:00Z'), 3).toISOString()).toBe('2014-01-19T00:00:00.000Z');
  });

  it('rounds one millisecond after midnight to the next midnight, and keeps midnight itself', () => {
    expect(lifecycleDueAt(new Date('2026-03-01T00:00:00.001Z'), 1).toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(lifecycleDueAt(new Date('2026-03-01T00:00:00.000Z'), 1).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(lifecycleDueAt(new Date('2026-02-28T23:59:59Z'), 1).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });
});
