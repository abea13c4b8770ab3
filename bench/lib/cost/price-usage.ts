/**
 * Dollars per million delivered emails, by AWS service, from what a bench phase metered (the SDK preload's
 * calls and units with BENCH_COST, the local cloud's Lambda billing, the API requests the bench made) and
 * AWS's on-demand prices (./prices.ts). Pure: the benches measure, this prices.
 *
 * What counts as ours on AWS, by origin of the call (bench/lib/sdk-preload.cjs): `product` (the service's
 * own calls), `event-source` (Lambda's pollers: SQS receives and deletes are billed to the queue's owner;
 * DynamoDB Streams reads by Lambda are free: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CostOptimization_StreamsUsage.html)
 * and `emulator` (what AWS does on our behalf and bills us for: SES publishing its events to SNS, the
 * scheduler sending to SQS). `local-cloud` (provisioning, health checks) and the bench's own are not.
 */
import { PRICES } from './prices';
import { TARGET_UTILIZATION_PERCENT } from '#infra/table-capacity';
import type { LambdaUsage } from './lambda-usage';

export interface MeteredUsage {
  /** "origin\tservice\toperation" -> calls (every attempt). */
  calls: Record<string, number>;
  /** "origin\tservice\toperation" -> failed conditional writes (DynamoDB returns no capacity for them). */
  failures?: Record<string, number>;
  /** "origin\tservice\tmeter" -> amount: "DynamoDB\tWRU <table|index>", "RRU ...", "SQS\trequests", "S3\tPUT bytes". */
  units: Record<string, number>;
  lambda: LambdaUsage;
  /** Requests through API Gateway (HTTP API). */
  apiRequests: number;
  /** The emails the usage delivered: the denominator. */
  emails: number;
}

export interface CostLine {
  service: string;
  /** What was counted, per email, in words. */
  measure: string;
  /** Dollars per million delivered emails. */
  perMillion: number;
}

export interface Cost {
  lines: CostLine[];
  /** Everything but SES's own charge. */
  beyondSes: number;
  /**
   * The same with the table in provisioned mode (context tableCapacity=provisioned) at steady load: each unit
   * consumed priced as capacity-hours kept at the auto scaling target's use (70%): what the mode costs when the
   * load is steady enough for scaling to follow it.
   */
  beyondSesProvisioned: number;
  /** SES's own charge per million delivered emails (its messages) on the a la carte plan, for comparison. */
  ses: number;
  /** The same on the Essentials plan, the default for SES accounts new since 2026-07-21. */
  sesEssentials: number;
}

/** The origins whose calls are ours on AWS (above). */
export const BILLED_ORIGINS: ReadonlySet<string> = new Set(['product', 'event-source', 'emulator']);

function split(key: string): [string, string, string] {
  const [origin = '', service = '', rest = ''] = key.split('\t');
  return [origin, service, rest];
}

/** Sum of `values` whose origin is billed and that `match` (service, operation or meter) selects. */
function sumOf(values: Record<string, number> | undefined, match: (service: string, name: string) => boolean): number {
  let sum = 0;
  for (const [key, value] of Object.entries(values ?? {})) {
    const [origin, service, name] = split(key);
    if (BILLED_ORIGINS.has(origin) && match(service, name)) sum += value;
  }
  return sum;
}

const S3_PUT_CLASS = new Set([
  'PutObject',
  'CopyObject',
  'CreateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'ListObjects',
  'ListObjectsV2',
  'ListBuckets',
]);
const S3_FREE = new Set(['DeleteObject', 'DeleteObjects']);
const DYNAMO_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/**
 * What Lambda itself writes to the function's log group for every invocation, in bytes: its START, END and
 * REPORT lines (about 70, 50 and 170 characters with a request id, as in
 * https://docs.aws.amazon.com/lambda/latest/dg/nodejs-logging.html, "Viewing logs"), which the local cloud
 * does not write. An estimate (the research notes beside the project, cost-and-ceilings.md, measured about 320 B).
 */
export const LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION = 300;

export function priceUsage(usage: MeteredUsage): Cost {
  const n = Math.max(1, usage.emails);
  const perEmail = (value: number) => value / n;
  const million = (usdPerEmail: number) => usdPerEmail * 1_000_000;
  const lines: CostLine[] = [];
  const add = (service: string, measure: string, usdPerEmail: number) => lines.push({ service, measure, perMillion: million(usdPerEmail) });

  // DynamoDB: the capacity DynamoDB reported, table and every index; a refused conditional write reports
  // none, and is charged at least one write unit (AWS charges a failed condition as a write).
  const indexes = new Map<string, number>();
  for (const [key, value] of Object.entries(usage.units)) {
    const [origin, service, meter] = split(key);
    if (!BILLED_ORIGINS.has(origin) || service !== 'DynamoDB') continue;
    indexes.set(meter, (indexes.get(meter) ?? 0) + value);
  }
  const failedWrites = sumOf(usage.failures, (service, operation) => service === 'DynamoDB' && DYNAMO_WRITES.has(operation));
  const wru = [...indexes].filter(([meter]) => meter.startsWith('WRU')).reduce((sum, [, value]) => sum + value, 0) + failedWrites;
  const rru = [...indexes].filter(([meter]) => meter.startsWith('RRU')).reduce((sum, [, value]) => sum + value, 0);
  const byIndex = (kind: string) =>
    [...indexes]
      .filter(([meter]) => meter.startsWith(kind))
      .sort((a, b) => b[1] - a[1])
      .map(([meter, value]) => `${meter.slice(kind.length + 1)} ${round(perEmail(value), 1)}`)
      .join(', ');
  const dynamoWritesUsd = perEmail(wru) * PRICES.dynamoWriteUnit.usd;
  const dynamoReadsUsd = perEmail(rru) * PRICES.dynamoReadUnit.usd;
  add(
    'DynamoDB writes',
    `${round(perEmail(wru), 1)} WRU (${byIndex('WRU') || 'none'}${failedWrites ? `, refused conditions ${round(perEmail(failedWrites), 2)}` : ''})`,
    dynamoWritesUsd,
  );
  add('DynamoDB reads', `${round(perEmail(rru), 1)} RRU (${byIndex('RRU') || 'none'})`, dynamoReadsUsd);
  const utilization = TARGET_UTILIZATION_PERCENT / 100;
  const onDemandDynamo = million(dynamoWritesUsd + dynamoReadsUsd);
  const provisionedDynamo = million(
    (perEmail(wru) * PRICES.dynamoWriteCapacityHour.usd + perEmail(rru) * PRICES.dynamoReadCapacityHour.usd) / 3600 / utilization,
  );

  // Lambda: requests, and GB-seconds at each function's memory.
  let invocations = 0;
  let gbSeconds = 0;
  const functions: string[] = [];
  for (const [name, used] of Object.entries(usage.lambda).sort(
    (a, b) => b[1].billed_ms * b[1].memory_mb - a[1].billed_ms * a[1].memory_mb,
  )) {
    invocations += used.invocations;
    const gbs = (used.billed_ms / 1000) * (used.memory_mb / 1024);
    gbSeconds += gbs;
    functions.push(`${name} ${round(perEmail(used.invocations), 2)} x ${round(used.billed_ms / used.invocations, 0)} ms`);
  }
  add(
    'Lambda requests',
    `${round(perEmail(invocations), 2)} invocations (${functions.slice(0, 4).join(', ') || 'none'})`,
    perEmail(invocations) * PRICES.lambdaRequest.usd,
  );
  add('Lambda duration', `${round(perEmail(gbSeconds) * 1000, 2)} GB-ms`, perEmail(gbSeconds) * PRICES.lambdaArmGbSecond.usd);

  add('API Gateway', `${round(perEmail(usage.apiRequests), 2)} HTTP API requests`, perEmail(usage.apiRequests) * PRICES.httpApiRequest.usd);

  const sqs = sumOf(usage.units, (service, meter) => service === 'SQS' && meter === 'requests');
  add('SQS', `${round(perEmail(sqs), 2)} requests (64 KB chunks)`, perEmail(sqs) * PRICES.sqsRequest.usd);

  const sns = sumOf(usage.calls, (service, operation) => service === 'SNS' && (operation === 'Publish' || operation === 'PublishBatch'));
  add('SNS', `${round(perEmail(sns), 2)} publishes`, perEmail(sns) * PRICES.snsPublish.usd);

  const s3Put = sumOf(usage.calls, (service, operation) => service === 'S3' && S3_PUT_CLASS.has(operation));
  const s3Get = sumOf(usage.calls, (service, operation) => service === 'S3' && !S3_PUT_CLASS.has(operation) && !S3_FREE.has(operation));
  const s3Bytes = sumOf(usage.units, (service, meter) => service === 'S3' && meter === 'PUT bytes');
  add(
    'S3 requests',
    `${round(perEmail(s3Put), 2)} PUT, ${round(perEmail(s3Get), 2)} GET (${round(perEmail(s3Bytes) / 1024, 1)} KB stored)`,
    perEmail(s3Put) * PRICES.s3Put.usd + perEmail(s3Get) * PRICES.s3Get.usd,
  );

  // CloudWatch Logs: the product's own lines (metered by the SDK preload at the stack's log level, `warn` as
  // deployed) and Lambda's three lines per invocation.
  const ownLogBytes = sumOf(usage.units, (service, meter) => service === 'CloudWatch Logs' && meter === 'bytes');
  const platformLogBytes = invocations * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION;
  add(
    'CloudWatch Logs',
    `${round(perEmail(ownLogBytes + platformLogBytes), 0)} bytes (our lines ${round(perEmail(ownLogBytes), 0)}, Lambda's START/END/REPORT ${round(perEmail(platformLogBytes), 0)})`,
    (perEmail(ownLogBytes + platformLogBytes) / 1024 ** 3) * PRICES.cloudwatchLogsIngestedGb.usd,
  );

  const kms = sumOf(usage.calls, (service) => service === 'KMS');
  add('KMS', `${round(perEmail(kms), 3)} requests`, perEmail(kms) * PRICES.kmsRequest.usd);

  const schedules = sumOf(usage.calls, (service, operation) => service === 'Scheduler' && operation === 'CreateSchedule');
  add(
    'EventBridge Scheduler',
    `${round(perEmail(schedules), 2)} one-time schedules (one invocation each)`,
    perEmail(schedules) * PRICES.schedulerInvocation.usd,
  );

  const sesMessages = sumOf(
    usage.calls,
    (service, operation) => service === 'SES' && (operation === 'SendEmail' || operation === 'SendRawEmail'),
  );
  const beyondSes = lines.reduce((sum, line) => sum + line.perMillion, 0);
  return {
    lines,
    beyondSes,
    beyondSesProvisioned: beyondSes - onDemandDynamo + provisionedDynamo,
    ses: million(perEmail(sesMessages) * PRICES.sesMessage.usd),
    sesEssentials: million(perEmail(sesMessages) * PRICES.sesMessageEssentials.usd),
  };
}
