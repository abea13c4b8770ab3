/**
 * A template bucket's lifecycle rules (AWS::S3::Bucket LifecycleConfiguration), read at deploy for the
 * local S3's sweeper (../s3/s3-lifecycle-sweep.ts). fauxqs has no lifecycle API (no
 * PutBucketLifecycleConfiguration), so the rules stay with the local cloud. Here, beside the rest of the
 * template's reading, as the deploy checks them (./deploy-messaging.ts) before the sweeper applies them.
 *
 * The local cloud applies what our template uses: Status, Id, Prefix, ExpirationInDays and
 * AbortIncompleteMultipartUpload.DaysAfterInitiation
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-s3-bucket-rule.html).
 * Any other element (transitions, tag or size filters, ExpirationDate, noncurrent versions, delete
 * markers) fails the deploy with its name rather than being ignored: an unapplied rule would keep locally
 * what AWS deletes. A rule with Status Disabled is kept out, as S3 does. The days must be positive
 * integers, as S3 requires ("Lifecycle configuration elements":
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/intro-lifecycle-rules.html).
 */
import type { DeployedStack } from './deployed-stack';

export interface LifecycleRule {
  id: string;
  /** Object keys the rule covers ('' = the whole bucket). */
  prefix: string;
  expirationDays?: number;
  abortIncompleteMultipartUploadDays?: number;
}

export interface BucketLifecycle {
  bucket: string;
  rules: LifecycleRule[];
}

const SUPPORTED = new Set(['Id', 'Status', 'Prefix', 'ExpirationInDays', 'AbortIncompleteMultipartUpload']);

function positiveDays(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new Error(`${what} must be a positive integer (S3's rule), not ${JSON.stringify(value)}`);
  return value;
}

/** The enabled rules of one bucket's LifecycleConfiguration; throws on a shape the local cloud does not implement. */
export function lifecycleRules(configuration: unknown, where: string): LifecycleRule[] {
  if (configuration === undefined) return [];
  const rules = (configuration as { Rules?: unknown }).Rules;
  const extra = Object.keys(configuration as object).filter((name) => name !== 'Rules' && name !== 'TransitionDefaultMinimumObjectSize');
  if (!Array.isArray(rules) || extra.length)
    throw new Error(
      `${where}: LifecycleConfiguration must be {Rules: [...]}; the local cloud does not implement ${extra.join(', ') || 'this shape'}`,
    );
  const applied: LifecycleRule[] = [];
  rules.forEach((raw: Record<string, unknown>, index) => {
    const at = `${where} rule ${String(raw.Id ?? index)}`;
    const unsupported = Object.keys(raw).filter((name) => !SUPPORTED.has(name));
    if (unsupported.length)
      throw new Error(
        `${at}: the local cloud does not implement ${unsupported.join(', ')} (docs/local-cloud/s3.md); implement it in localstack/cloud/s3-lifecycle-*.ts or change the rule`,
      );
    if (raw.Status !== 'Enabled' && raw.Status !== 'Disabled')
      throw new Error(`${at}: Status must be Enabled or Disabled, not ${JSON.stringify(raw.Status)}`);
    const abort = raw.AbortIncompleteMultipartUpload as { DaysAfterInitiation?: unknown } | undefined;
    if (abort && Object.keys(abort).some((name) => name !== 'DaysAfterInitiation'))
      throw new Error(`${at}: AbortIncompleteMultipartUpload takes DaysAfterInitiation only`);
    const rule: LifecycleRule = {
      id: String(raw.Id ?? `rule-${index}`),
      prefix: typeof raw.Prefix === 'string' ? raw.Prefix : '',
      ...(raw.ExpirationInDays === undefined ? {} : { expirationDays: positiveDays(raw.ExpirationInDays, `${at} ExpirationInDays`) }),
      ...(abort
        ? {
            abortIncompleteMultipartUploadDays: positiveDays(
              abort.DaysAfterInitiation,
              `${at} AbortIncompleteMultipartUpload.DaysAfterInitiation`,
            ),
          }
        : {}),
    };
    if (rule.expirationDays === undefined && rule.abortIncompleteMultipartUploadDays === undefined)
      throw new Error(`${at}: a rule needs an action (S3 refuses a rule without one)`);
    if (raw.Status === 'Enabled') applied.push(rule);
  });
  return applied;
}

/** Every deployed bucket's enabled lifecycle rules, by its local name. */
export function bucketLifecycles(stack: DeployedStack): BucketLifecycle[] {
  return stack.ofType('AWS::S3::Bucket').map((id) => ({
    bucket: stack.record(id).name!,
    rules: lifecycleRules(stack.properties<{ LifecycleConfiguration?: unknown }>(id).LifecycleConfiguration, `${id} (AWS::S3::Bucket)`),
  }));
}
