/** The workers fed by the table's stream (./table.ts): the outboxes and the day stats, with their filters and grants. */
import { ENV } from '#shared/config/config';
import type { Grant } from './access';
import type { Capability } from './capabilities';
import { sendsTo, tableGetItems, tableRead, tableUpdate } from './grants';

/**
 * A Lambda event filter pattern (Lambda's filter syntax), matched against each stream record in its
 * Lambda shape (`eventName`, `dynamodb.NewImage` in AttributeValue form, ...). Leaves are arrays of
 * alternatives: literal values, `{prefix}`, `{suffix}`, `{'anything-but': [...]}`, `{exists: boolean}`,
 * `{numeric: ['>', 0, ...]}`, `{'equals-ignore-case': ...}`. Several patterns of one worker are OR-ed.
 */
export interface FilterPattern {
  [field: string]: FilterPattern | FilterValue[];
}
export type FilterValue =
  | string
  | number
  | boolean
  | null
  | { prefix: string }
  | { suffix: string }
  | { 'anything-but': string | number | (string | number)[] }
  | { exists: boolean }
  | { numeric: (string | number)[] }
  | { 'equals-ignore-case': string };

/**
 * A worker fed by the table's stream (DynamoDB Streams -> Lambda event source mapping), with the
 * mapping's settings. The local cloud emulates the mapping with the same settings.
 */
export interface StreamWorkerDefinition {
  name: string;
  entry: string;
  /** Where a new mapping starts reading (later restarts resume from the checkpoint). */
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** Records per invocation (1-10000). */
  batchSize: number;
  /**
   * How long to gather records before invoking (0: invoke as soon as records are read). Lambda takes
   * whole seconds (0-300), so this must be a multiple of 1000.
   */
  maxBatchingWindowMs: number;
  /** Records matching none of these are dropped (checkpointed, never invoked); empty: every record. */
  filters: FilterPattern[];
  /** Retries of a failing batch before it goes to the on-failure queue (-1: until the records expire). */
  retryAttempts: number;
  /** Split a failing batch in two and retry the halves separately. */
  bisectBatchOnFunctionError: boolean;
  /** The handler answers `batchItemFailures`: processing resumes at the first failed record. */
  reportBatchItemFailures: boolean;
  /** SQS queue receiving a description of each batch given up (shard, sequence numbers, stream). */
  onFailure: { queueName: string; envVar: string };
  timeoutSeconds: number;
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
  /** What its code builds (./capabilities.ts): the shared/services/ modules its handler composes. */
  capabilities: Capability[];
  grants: Grant[];
}

export const STREAM_WORKERS: StreamWorkerDefinition[] = [
  {
    // The transactional outbox: an email written `queued` (with its usage) is handed to the send queue
    // from the table's stream, so the request path never calls SQS and a crash cannot strand an email.
    name: 'outbox-relay',
    entry: 'functions/workers/outbox-relay/handler.ts',
    capabilities: ['platform', 'usage', 'messaging'],
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    // Latency first: invoke with whatever one read returned (under load reads return full batches).
    maxBatchingWindowMs: 0,
    filters: [{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['email'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-outbox-relay-failures', envVar: ENV.outboxRelayFailuresQueueUrl },
    timeoutSeconds: 30,
    grants: [
      sendsTo('send'),
      // email.scheduled and email.suppressed, published from the write they stand for.
      sendsTo('webhookEvents'),
      // Deferred usage: ADD to the uncapped usage counters (the email itself is in the record).
      tableUpdate,
      // Whether the account has a webhook endpoint before publishing its events (its endpoint counter).
      tableGetItems,
    ],
  },
  {
    // Day stats: each write of an email moves its acceptance day's counters (old vs new image): its tenant's,
    // and its account's and the deployment's (sharded) when it moved sent, bounced or complained, one
    // idempotent transaction per batch, so stats never scan emails (docs/tenants.md); then the tenants'
    // automatic pause and the reputation brake (docs/deliverability.md, "Reputation guard").
    name: 'tenant-stats',
    entry: 'functions/workers/tenant-stats/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'deliverability'],
    startingPosition: 'TRIM_HORIZON',
    batchSize: 500,
    // Counters, not latency: gather a second of records per write.
    maxBatchingWindowMs: 1000,
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['email'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-tenant-stats-failures', envVar: ENV.tenantStatsFailuresQueueUrl },
    timeoutSeconds: 30,
    grants: [
      // ADD to the day counters; then read a tenant's or account's window (and a tenant's id alias) to pause it.
      tableUpdate,
      tableRead,
    ],
  },
  {
    // tenant.paused / tenant.resumed and account.paused / account.resumed, published from the write that
    // changed the tenant's or the account's status.
    name: 'tenant-events',
    entry: 'functions/workers/tenant-events/handler.ts',
    capabilities: ['platform', 'messaging'],
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    maxBatchingWindowMs: 0,
    filters: [{ eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: ['tenant', 'account'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-tenant-events-failures', envVar: ENV.tenantEventsFailuresQueueUrl },
    timeoutSeconds: 30,
    // The events queue, and the table read of whether the account has a webhook endpoint before publishing.
    grants: [sendsTo('webhookEvents'), tableGetItems],
  },
  {
    // The outbox for runs: each run written with a pending step is handed to the automation-steps queue,
    // and the automation.* webhooks are derived from the run's old and new images (docs/automations.md).
    name: 'automation-outbox',
    entry: 'functions/workers/automation-outbox/handler.ts',
    capabilities: ['platform', 'messaging'],
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    maxBatchingWindowMs: 0,
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['run'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-automation-outbox-failures', envVar: ENV.automationOutboxFailuresQueueUrl },
    timeoutSeconds: 30,
    // The table read: whether the account has a webhook endpoint before publishing its automation.* events.
    grants: [sendsTo('automationSteps'), sendsTo('webhookEvents'), tableGetItems],
  },
];
