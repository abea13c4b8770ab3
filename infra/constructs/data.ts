import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { RETENTION_CLASSES_DAYS, retentionKeyPrefix } from '#shared/domain/accounts/retention';
import { INBOUND_RAW_DAYS, INBOUND_RAW_PREFIX } from '#shared/domain/inbound/content-keys';
import { EXPORT_KEPT_DAYS, EXPORT_PREFIX } from '#shared/domain/exports/export';
import { BUCKETS, SECRETS_KEY, TABLE, type BucketId } from '../definitions';
import { TABLE_WARM_READS_CONTEXT, TABLE_WARM_WRITES_CONTEXT, tableWarmThroughput } from '../table-warm-throughput';
import {
  TABLE_CAPACITY_CONTEXT,
  TABLE_READ_CAPACITY_CONTEXT,
  TABLE_WRITE_CAPACITY_CONTEXT,
  TARGET_UTILIZATION_PERCENT,
  tableCapacity,
} from '../table-capacity';
import { acknowledgeRule } from './nag';
import { mapRecord, pascalCase } from './util';

/**
 * Context `tableIndexes` (`cdk deploy -c tableIndexes=4`): declare only the first N of the table's global
 * secondary indexes. CloudFormation creates or deletes at most one index of a table per stack update (as
 * UpdateTable does: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html), so a
 * deployment two or more indexes behind reaches the template one deploy per index (docs/deploy.md, "Upgrading").
 */
export const TABLE_INDEXES_CONTEXT = 'tableIndexes';

/** The indexes the template declares: all, or the first `context` of them. */
export function declaredIndexes(context: unknown): typeof TABLE.globalSecondaryIndexes {
  const all = TABLE.globalSecondaryIndexes;
  if (context === undefined) return all;
  const count = Number(context);
  if (!Number.isInteger(count) || count < 1 || count > all.length) {
    throw new Error(
      `context ${TABLE_INDEXES_CONTEXT} must be a whole number from 1 to ${all.length} (the first N of the table's indexes: ${all.map((gsi) => gsi.indexName).join(', ')}), got ${String(context)}`,
    );
  }
  return all.slice(0, count);
}

/** How long S3 server access logs and VPC flow logs are kept. */
export const ACCESS_LOG_RETENTION_DAYS = 90;

/**
 * The single DynamoDB table (with its stream when TABLE.stream is set) and the buckets, from TABLE and BUCKETS, and the KMS key that encrypts
 * the secrets stored in the table (SECRETS_KEY). All are retained on stack deletion: the table's
 * sealed secrets are only readable with that key.
 *
 * Beside them, the logs bucket: the server access logs of every bucket of BUCKETS (who read or wrote which
 * stored email, cdk-nag S1: https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerLogs.html) and
 * the SMTP relay VPC's flow logs, kept ACCESS_LOG_RETENTION_DAYS days. No function is granted it.
 */
export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly buckets: Record<BucketId, s3.Bucket>;
  readonly secretsKey: kms.Key;
  /** Access logs of the buckets and flow logs of the relay's VPC. */
  readonly logsBucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    // Pre-warmed only when asked (contexts tableWarmWrites, tableWarmReads): the table and each index alike.
    const warmThroughput = tableWarmThroughput(
      this.node.tryGetContext(TABLE_WARM_WRITES_CONTEXT),
      this.node.tryGetContext(TABLE_WARM_READS_CONTEXT),
    );
    // On demand unless asked (context tableCapacity=provisioned): then capacity auto scaled, the table and each index alike.
    const capacity = tableCapacity(
      this.node.tryGetContext(TABLE_CAPACITY_CONTEXT),
      this.node.tryGetContext(TABLE_WRITE_CAPACITY_CONTEXT),
      this.node.tryGetContext(TABLE_READ_CAPACITY_CONTEXT),
    );
    const provisioned =
      capacity.mode === 'provisioned' ? { readCapacity: capacity.reads.min, writeCapacity: capacity.writes.min } : undefined;
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: provisioned ? dynamodb.BillingMode.PROVISIONED : dynamodb.BillingMode.PAY_PER_REQUEST,
      ...(provisioned ?? {}),
      timeToLiveAttribute: TABLE.timeToLiveAttribute,
      // The outbox: STREAM_WORKERS read the table's stream (infra/constructs/workers.ts).
      ...(TABLE.stream ? { stream: dynamodb.StreamViewType[TABLE.stream] } : {}),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
      ...(warmThroughput ? { warmThroughput } : {}),
    });
    for (const gsi of declaredIndexes(this.node.tryGetContext(TABLE_INDEXES_CONTEXT))) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: gsi.projection === 'KEYS_ONLY' ? dynamodb.ProjectionType.KEYS_ONLY : dynamodb.ProjectionType.ALL,
        ...(warmThroughput ? { warmThroughput } : {}),
        ...(provisioned ?? {}),
      });
    }
    if (capacity.mode === 'provisioned') {
      const utilization = { targetUtilizationPercent: TARGET_UTILIZATION_PERCENT };
      const writes = { minCapacity: capacity.writes.min, maxCapacity: capacity.writes.max };
      const reads = { minCapacity: capacity.reads.min, maxCapacity: capacity.reads.max };
      this.table.autoScaleWriteCapacity(writes).scaleOnUtilization(utilization);
      this.table.autoScaleReadCapacity(reads).scaleOnUtilization(utilization);
      for (const gsi of declaredIndexes(this.node.tryGetContext(TABLE_INDEXES_CONTEXT))) {
        this.table.autoScaleGlobalSecondaryIndexWriteCapacity(gsi.indexName, writes).scaleOnUtilization(utilization);
        this.table.autoScaleGlobalSecondaryIndexReadCapacity(gsi.indexName, reads).scaleOnUtilization(utilization);
      }
    }

    this.logsBucket = new s3.Bucket(this, 'LogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // SSE-S3: the only default encryption a server access log destination may have (SSE-KMS is not supported:
      // https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-server-access-logging.html).
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) }],
    });
    acknowledgeRule(
      this.logsBucket.node.defaultChild as s3.CfnBucket,
      'S1',
      'This is the access-log destination: S3 advises against a bucket logging into itself (every log delivery would be logged, without end: https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerLogs.html), and no function reads or writes it.',
    );

    this.buckets = mapRecord(
      BUCKETS,
      (def) =>
        new s3.Bucket(this, `${pascalCase(def.id)}Bucket`, {
          blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
          enforceSSL: true,
          encryption: s3.BucketEncryption.S3_MANAGED,
          removalPolicy: RemovalPolicy.RETAIN,
          serverAccessLogsBucket: this.logsBucket,
          serverAccessLogsPrefix: `s3-access/${def.id}/`,
          // Uploads (POST /attachments) are copied under the email that uses them; the uploads themselves
          // live a day, as their records do (docs/attachments.md).
          // Retention (docs/retention.md): objects are written under their account's class, `retention/<days>d/`,
          // one rule per class (S3's rules are bucket-wide; a prefix per class makes the account's choice the key's).
          lifecycleRules: [
            {
              id: 'expire-uploads',
              prefix: 'uploads/',
              expiration: Duration.days(1),
              abortIncompleteMultipartUploadAfter: Duration.days(1),
            },
            ...RETENTION_CLASSES_DAYS.map((days) => ({
              id: `retention-${days}d`,
              prefix: retentionKeyPrefix(days),
              expiration: Duration.days(days),
            })),
            // The MX listener's shared copy of a received message (each receiving account keeps its own under
            // its class): past every queue message that can name it (docs/retention.md).
            { id: 'expire-inbound-raw', prefix: INBOUND_RAW_PREFIX, expiration: Duration.days(INBOUND_RAW_DAYS) },
            // Account exports' files (docs/exports.md): kept as long as their record.
            { id: 'expire-exports', prefix: EXPORT_PREFIX, expiration: Duration.days(EXPORT_KEPT_DAYS) },
          ],
        }),
    );

    // Symmetric, yearly automatic rotation (old key material stays usable for decryption). The default
    // key policy trusts the account, so functions get access only through their IAM grants (grants.ts).
    this.secretsKey = new kms.Key(this, 'SecretsKey', {
      description: 'mailservice: encrypts stored secrets (DKIM private keys, webhook signing secrets)',
      alias: SECRETS_KEY.alias,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
