/**
 * BatchWriteItem over any number of put and delete requests: 25 a call (DynamoDB's limit), a few calls at
 * once, and what DynamoDB leaves unprocessed retried with exponential backoff and jitter, as its reference
 * asks ("If DynamoDB returns any unprocessed items, you should retry the batch operation on those items ...
 * we strongly recommend that you use an exponential backoff algorithm":
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html).
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapBounded } from '../../lib/concurrency';
import type { Table } from './table';

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** Requests in one BatchWriteItem (DynamoDB's limit). */
export const BATCH_WRITE_MAX = 25;
/** Calls of one write in flight at once. */
const CALLS_AT_ONCE = 4;
/** Calls for one chunk, its first included, before what is left is given up. */
const MAX_ATTEMPTS = 8;

const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));

/** What a write left: the requests not known to be written, and the error of a call that failed outright, if one did. */
export interface BatchWriteLeft {
  left: WriteRequest[];
  error?: unknown;
}

/**
 * Writes the requests; answers those not known to be written: still unprocessed after the last attempt (none,
 * nearly always), or in a call that failed outright (throttled past the SDK's own retries, a network error:
 * written or not, nobody knows). The other chunks' calls go on. Idempotent.
 */
export async function writeInBatches(table: Table, requests: readonly WriteRequest[]): Promise<BatchWriteLeft> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_MAX) chunks.push(requests.slice(i, i + BATCH_WRITE_MAX));
  let error: unknown;
  const left = await mapBounded(chunks, CALLS_AT_ONCE, async (chunk) => {
    let pending = chunk;
    try {
      for (let attempt = 1; pending.length > 0 && attempt <= MAX_ATTEMPTS; attempt++) {
        if (attempt > 1) await backoff(attempt);
        const result = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending } }));
        pending = (result.UnprocessedItems?.[table.name] ?? []) as WriteRequest[];
      }
    } catch (failure) {
      error ??= failure;
    }
    return pending;
  });
  return { left: left.flat(), ...(error === undefined ? {} : { error }) };
}

/** Writes the requests, every one of them or an error. Idempotent. */
export async function batchWrite(table: Table, requests: readonly WriteRequest[]): Promise<void> {
  const { left, error } = await writeInBatches(table, requests);
  if (error !== undefined) throw error;
  if (left.length) throw new Error(`BatchWriteItem left ${left.length} requests unprocessed`);
}

export const putRequests = (items: readonly Record<string, unknown>[]): WriteRequest[] => items.map((Item) => ({ PutRequest: { Item } }));
export const deleteRequests = (itemKeys: readonly Record<string, unknown>[]): WriteRequest[] =>
  itemKeys.map((Key) => ({ DeleteRequest: { Key } }));
