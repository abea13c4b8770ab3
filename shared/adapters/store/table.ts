/** The DynamoDB table handle shared by repositories, plus helpers for DynamoDB's error shapes. */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

export interface Table {
  client: DynamoDBDocumentClient;
  name: string;
}

/** One action of a TransactWriteItems, in the document client's form. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * The item a write refused by its condition answers with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`
 * (null when there was none): the document client leaves it in DynamoDB's wire form, so it is unmarshalled.
 */
export function itemOfRefusedWrite(error: unknown): Record<string, unknown> | null {
  const item = (error as { Item?: Record<string, unknown> } | null)?.Item;
  if (!item) return null;
  const wire = Object.values(item).every(
    (value) =>
      value !== null &&
      typeof value === 'object' &&
      Object.keys(value).length === 1 &&
      /^(S|N|B|BOOL|NULL|M|L|SS|NS|BS)$/.test(Object.keys(value)[0]!),
  );
  return wire ? unmarshall(item as never) : item;
}

/** A transaction cancelled because one of its conditions failed: the indexes of the items whose condition failed. */
export function cancelledConditionIndexes(error: unknown): number[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
}

/**
 * A single-item write (PutItem, UpdateItem, DeleteItem) refused because a transaction in progress holds
 * the same item: DynamoDB answers TransactionConflictException ("Transaction conflict handling",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling).
 * Not an error of the caller's: another request is writing the item right now.
 */
export function isWriteConflict(error: unknown): boolean {
  return error instanceof Error && error.name === 'TransactionConflictException';
}

/** True when another transaction touching the same items was one reason (of any) a transaction was cancelled. */
export function hasTransactionConflict(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.some((reason) => reason.Code === 'TransactionConflict');
}

/** True when a transaction was cancelled only because another transaction touched the same items. */
export function isTransactionConflict(error: unknown): boolean {
  return hasTransactionConflict(error) && cancelledConditionIndexes(error).length === 0;
}

/**
 * A Query's filter that leaves out items past their `ttl` (DynamoDB's TTL deletes lazily, days after:
 * docs/retention.md), with its names and values to merge into the Query's.
 */
export function unexpiredFilter(nowMs: number): {
  FilterExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, number>;
} {
  return {
    FilterExpression: 'attribute_not_exists(#ttl) OR #ttl > :now_seconds',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':now_seconds': Math.floor(nowMs / 1000) },
  };
}

/** Strips key attributes before an item leaves the store. */
export function withoutKeys<T extends Record<string, unknown>>(
  item: T,
): Omit<
  T,
  'PK' | 'SK' | 'GSI1PK' | 'GSI1SK' | 'GSI2PK' | 'GSI2SK' | 'GSI3PK' | 'GSI3SK' | 'GSI4PK' | 'GSI4SK' | 'GSI5PK' | 'GSI5SK' | 'ttl'
> {
  const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK, GSI4PK, GSI4SK, GSI5PK, GSI5SK, ttl, ...rest } = item;
  return rest;
}

/**
 * TransactWriteItems, retried (with jitter) when it was cancelled only by a conflicting concurrent
 * transaction. Condition failures are not retried: they are the answer. A `clientRequestToken` makes
 * the call idempotent for 10 minutes (the same token again changes nothing), retries included.
 */
export async function transactWrite(table: Table, items: TransactItem[], clientRequestToken?: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await table.client.send(
        new TransactWriteCommand({ TransactItems: items, ...(clientRequestToken ? { ClientRequestToken: clientRequestToken } : {}) }),
      );
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** `SET #a = :a, ...` for the defined values of `changes`, always stamping `updated_at`. */
export function setChanges(changes: Record<string, unknown>, now: string) {
  const names: Record<string, string> = { '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':updated_at': now };
  const sets = ['#updated_at = :updated_at'];
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(`#${name} = :${name}`);
  }
  return { UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** An UpdateItem whose condition may fail: the item as returned (ALL_NEW unless said), or null. */
export async function updateIfCondition(
  table: Table,
  input: Omit<UpdateCommandInput, 'TableName'>,
): Promise<Record<string, unknown> | null> {
  try {
    const result = await table.client.send(new UpdateCommand({ ReturnValues: 'ALL_NEW', ...input, TableName: table.name }));
    return result.Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/**
 * Attributes a later write fills with `if_not_exists` must be absent, not NULL, until then (NULL is
 * "exists"). This maps a model's nulls to absence on write; on read, the model's schema maps absence
 * back to null (`.nullable().default(null)`: decode.ts).
 */
export function withoutNullFields<T extends object>(model: T, fields: readonly string[]): Record<string, unknown> {
  const item = { ...model } as Record<string, unknown>;
  for (const field of fields) if (item[field] === null) delete item[field];
  return item;
}

/** Every item a query matches, all pages (for sets known to be small: an account's webhooks, a tenant's credentials). */
export async function queryAll<T>(
  table: Table,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  map: (item: Record<string, unknown>) => T,
): Promise<T[]> {
  const found: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await table.client.send(new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }));
    found.push(...(result.Items ?? []).map(map));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return found;
}

/** Every item of partition `PK` whose sort key starts with `SKPrefix`, all pages, strongly consistent (for small sets). */
export function queryAllWithPrefix<T>(
  table: Table,
  { PK, SKPrefix }: { PK: string; SKPrefix: string },
  map: (item: Record<string, unknown>) => T,
): Promise<T[]> {
  return queryAll(
    table,
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ConsistentRead: true,
    },
    map,
  );
}
