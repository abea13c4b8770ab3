/**
 * In-region AWS latencies per service and operation (client-side, warm keep-alive connection, small
 * items/messages), as log-normal distributions given by their p50 and p99 (ms). Used by `--aws-latency`:
 * the SDK preload (sdk-preload.cjs) delays each outgoing call of the stack's product code and of the
 * local Lambda event sources by a sample from here, and the benchmark does the same for the floor's
 * calls. Sources and assumptions: docs/benchmarks.md, "AWS latency model". Operations without an entry
 * are not delayed.
 *
 * CommonJS so that the preload (plain Node) and the benchmark (tsx) share one table.
 */
'use strict';

/** p50/p99 in ms; `source` is a key of SOURCES (or 'assumption'). */
const LATENCY = {
  'DynamoDB GetItem': { p50: 5, p99: 12, source: 'assumption-ddb-read' },
  'DynamoDB BatchGetItem': { p50: 7, p99: 18, source: 'assumption-ddb-read' },
  'DynamoDB Query': { p50: 7, p99: 18, source: 'assumption-ddb-read' },
  'DynamoDB PutItem': { p50: 7.5, p99: 16, source: 'debrie-2020' },
  'DynamoDB UpdateItem': { p50: 7.5, p99: 16, source: 'debrie-2020' },
  'DynamoDB DeleteItem': { p50: 7.5, p99: 16, source: 'debrie-2020' },
  'DynamoDB BatchWriteItem': { p50: 8, p99: 26, source: 'debrie-2020' },
  'DynamoDB TransactWriteItems': { p50: 25, p99: 92, source: 'debrie-2020' },
  'DynamoDB Streams GetRecords': { p50: 10, p99: 40, source: 'assumption' },
  'SQS SendMessage': { p50: 16, p99: 60, source: 'sqs-2012' },
  'SQS SendMessageBatch': { p50: 20, p99: 70, source: 'sqs-2012' },
  'SQS ReceiveMessage': { p50: 16, p99: 60, source: 'sqs-2012' },
  'SQS DeleteMessageBatch': { p50: 16, p99: 60, source: 'sqs-2012' },
  'S3 PutObject': { p50: 30, p99: 150, source: 's3-whitepaper' },
  'S3 GetObject': { p50: 20, p99: 100, source: 's3-whitepaper' },
  'SES SendEmail': { p50: 130, p99: 400, source: 'knock-2026' },
  'KMS Decrypt': { p50: 8, p99: 30, source: 'assumption' },
  'Scheduler CreateSchedule': { p50: 30, p99: 100, source: 'assumption' },
};

/** z of the 99th percentile of the standard normal distribution. */
const Z99 = 2.3263478740408408;

function paramsOf(name) {
  const entry = LATENCY[name];
  if (!entry) return null;
  return { mu: Math.log(entry.p50), sigma: Math.log(entry.p99 / entry.p50) / Z99, cap: entry.p99 * 4 };
}

const cache = new Map();

/** A standard normal sample (Box-Muller). */
function gaussian(random) {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * A latency in ms for `service operation` ("DynamoDB GetItem"), or 0 when the operation has no entry.
 * Log-normal with the entry's p50 and p99, capped at 4 x p99 (no pathological tail in a short run).
 */
function sample(service, operation, random = Math.random) {
  const name = `${service} ${operation}`;
  let params = cache.get(name);
  if (params === undefined) {
    params = paramsOf(name);
    cache.set(name, params);
  }
  if (!params) return 0;
  return Math.min(params.cap, Math.exp(params.mu + params.sigma * gaussian(random)));
}

module.exports = { LATENCY, sample };
