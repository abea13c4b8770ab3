/**
 * The ARNs and values the operation map (./operations.ts) derives from SDK inputs, one small function per
 * shape. ARN formats are the Service Authorization Reference's (checked in test/unit/local-cloud/iam/operations.test.ts).
 */
import { UnsupportedRequestError } from './errors';

export interface OperationEnv {
  partition: string;
  region: string;
  accountId: string;
  /** The key id a KMS ciphertext blob names (the local KMS emulator's format), or undefined if it names none. */
  kmsKeyIdOfCiphertext?: (blob: Uint8Array) => string | undefined;
  /** The key ARN an alias (`alias/x` or its ARN) points to; without it an alias cannot be authorized and throws. */
  kmsAliasTarget?: (alias: string) => string | undefined;
  /** The SES tenant id of a tenant name, when the tenant exists. */
  sesTenantId?: (tenantName: string) => string | undefined;
  /** The stream ARN a DynamoDB Streams shard iterator reads (remembered from GetShardIterator/GetRecords answers). */
  streamOfShardIterator?: (iterator: string) => string | undefined;
}

export type Input = Record<string, unknown>;

export function required(input: Input, member: string, operation: string): string {
  const value = input[member];
  if (typeof value !== 'string' || value === '')
    throw new UnsupportedRequestError(`${operation}: ${member} is missing, so the request cannot be authorized`);
  return value;
}

export const dynamoTableArn = (env: OperationEnv, table: string): string =>
  table.startsWith('arn:') ? table : `arn:${env.partition}:dynamodb:${env.region}:${env.accountId}:table/${table}`;

/** A Query or Scan reads the index when IndexName is given: "arn:...:table/T/index/I". */
export const dynamoReadArn = (env: OperationEnv, input: Input, operation: string): string => {
  const table = dynamoTableArn(env, required(input, 'TableName', operation));
  return typeof input.IndexName === 'string' ? `${table}/index/${input.IndexName}` : table;
};

/** `https://host/<account>/<name>` -> `arn:aws:sqs:<region>:<account>:<name>` (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-queue-message-identifiers.html). */
export function sqsQueueArn(env: OperationEnv, queueUrl: string): string {
  let path: string[];
  try {
    path = new URL(queueUrl).pathname.split('/').filter(Boolean);
  } catch {
    throw new UnsupportedRequestError(`"${queueUrl}" is not a queue URL`);
  }
  const [account, name] = path.slice(-2);
  if (path.length < 2 || !account || !name || !/^\d{12}$/.test(account))
    throw new UnsupportedRequestError(`"${queueUrl}" is not a queue URL of the form https://host/<account>/<queue>`);
  return `arn:${env.partition}:sqs:${env.region}:${account}:${name}`;
}

export const s3BucketArn = (env: OperationEnv, bucket: string): string => `arn:${env.partition}:s3:::${bucket}`;
export const s3ObjectArn = (env: OperationEnv, bucket: string, key: string): string => `arn:${env.partition}:s3:::${bucket}/${key}`;

/** CopySource `bucket/key[?versionId=v]`, URL-encoded (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CopyObject.html). */
export function s3CopySource(copySource: string): { bucket: string; key: string; versionId?: string } {
  const [path = '', query] = copySource.replace(/^\//, '').split('?');
  const slash = path.indexOf('/');
  if (slash <= 0) throw new UnsupportedRequestError(`CopySource "${copySource}" is not bucket/key`);
  const versionId = query ? new URLSearchParams(query).get('versionId') : null;
  return {
    bucket: decodeURIComponent(path.slice(0, slash)),
    key: decodeURIComponent(path.slice(slash + 1)),
    ...(versionId ? { versionId } : {}),
  };
}

const sesPrefix = (env: OperationEnv) => `arn:${env.partition}:ses:${env.region}:${env.accountId}`;
export const sesIdentityArn = (env: OperationEnv, identity: string): string => `${sesPrefix(env)}:identity/${identity}`;
export const sesConfigurationSetArn = (env: OperationEnv, name: string): string => `${sesPrefix(env)}:configuration-set/${name}`;
export const sesTemplateArn = (env: OperationEnv, name: string): string => `${sesPrefix(env)}:template/${name}`;
/**
 * `tenant/<name>/<id>`. The id is SES's; before the tenant exists (CreateTenant), or when the local cloud
 * is not told it, the id is `*` (our choice: AWS documents no ARN for a tenant that has no id yet).
 */
export const sesTenantArn = (env: OperationEnv, name: string): string =>
  `${sesPrefix(env)}:tenant/${name}/${env.sesTenantId?.(name) ?? '*'}`;

/** `"Name" <a@b.example>` or `a@b.example` -> the address and the display name (RFC 5322 name-addr / addr-spec). */
export function parseMailbox(mailbox: string): { address: string; displayName?: string } {
  const angle = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(mailbox);
  if (!angle) return { address: mailbox.trim() };
  const name = (angle[1] ?? '').replace(/^"(.*)"$/, '$1').trim();
  return { address: (angle[2] as string).trim(), ...(name ? { displayName: name } : {}) };
}

export const schedulerScheduleArn = (env: OperationEnv, group: string | undefined, name: string): string =>
  `arn:${env.partition}:scheduler:${env.region}:${env.accountId}:schedule/${group ?? 'default'}/${name}`;

/** A KMS KeyId (key id, key ARN, alias name or alias ARN) -> the key ARN, and the alias when one was used. */
export function kmsKey(env: OperationEnv, keyId: string): { keyArn: string; alias?: string } {
  const isAlias = keyId.startsWith('alias/') || /^arn:[^:]+:kms:[^:]*:\d*:alias\//.test(keyId);
  if (isAlias) {
    const keyArn = env.kmsAliasTarget?.(keyId);
    if (!keyArn)
      throw new UnsupportedRequestError(`KMS alias ${keyId}: the local cloud cannot tell which key it names, so it cannot be authorized`);
    return { keyArn, alias: keyId.startsWith('alias/') ? keyId : keyId.slice(keyId.indexOf('alias/')) };
  }
  return { keyArn: keyId.startsWith('arn:') ? keyId : `arn:${env.partition}:kms:${env.region}:${env.accountId}:key/${keyId}` };
}

/** Route 53 ids may arrive as `/hostedzone/Z1` or `/change/C1`; the SDK usually strips the prefix already. */
export const route53Id = (id: string): string => id.replace(/^\/?(hostedzone|change)\//, '');

/**
 * API Gateway's management resources: `arn:<partition>:apigateway:<region>::<path>`, the path of the
 * management API without its `/v2` prefix and no account (Service Authorization Reference, Amazon API
 * Gateway Management V2, resource types DomainNames, DomainName, ApiMappings, ApiMapping).
 */
export const apiGatewayArn = (env: OperationEnv, path: string): string => `arn:${env.partition}:apigateway:${env.region}::${path}`;

/**
 * Tags of a create request as the global keys `aws:TagKeys` and `aws:RequestTag/<key>`; without tags both are
 * known absent (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-requesttag).
 */
export function requestTagKeys(tags: readonly (readonly [string, string])[] | undefined): {
  context: Record<string, string | string[]>;
  absentKeys: string[];
} {
  if (!tags || tags.length === 0) return { context: {}, absentKeys: ['aws:TagKeys', 'aws:RequestTag/*'] };
  return {
    context: {
      'aws:TagKeys': tags.map(([key]) => key),
      ...Object.fromEntries(tags.map(([key, value]) => [`aws:RequestTag/${key}`, value])),
    },
    // Any tag key the request does not carry is known absent.
    absentKeys: ['aws:RequestTag/*'],
  };
}
