/** BatchGetItem for any number of keys (the send path reads its whole context with it in one round trip). */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './table';

/** BatchGetItem's limit of keys per request. */
const BATCH_GET_SIZE = 100;

/**
 * BatchGetItem over any number of keys: duplicates removed (DynamoDB refuses them), chunks of 100 in
 * parallel, UnprocessedKeys retried with jittered exponential backoff. Throws when DynamoDB still has
 * not processed some keys after `maxAttempts`: a lookup must never silently miss an item.
 */
export async function batchGetItems(
  table: Table,
  itemKeys: Record<string, string>[],
  options: { consistentRead?: boolean; projection?: string[]; maxAttempts?: number } = {},
): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(itemKeys.map((key) => [`${key.PK}\u0000${key.SK}`, key])).values()];
  const chunks: Record<string, string>[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_GET_SIZE) chunks.push(unique.slice(i, i + BATCH_GET_SIZE));
  const names = options.projection ? Object.fromEntries(options.projection.map((name, i) => [`#p${i}`, name])) : undefined;
  const maxAttempts = options.maxAttempts ?? 8;

  const fetchChunk = async (chunk: Record<string, string>[]): Promise<Record<string, unknown>[]> => {
    const found: Record<string, unknown>[] = [];
    let pending: Record<string, unknown>[] = chunk;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > maxAttempts) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${maxAttempts} attempts`);
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, 25 * 2 ** attempt)));
      const result = await table.client.send(
        new BatchGetCommand({
          RequestItems: {
            [table.name]: {
              Keys: pending,
              ConsistentRead: options.consistentRead ?? false,
              ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
            },
          },
        }),
      );
      found.push(...(result.Responses?.[table.name] ?? []));
      pending = result.UnprocessedKeys?.[table.name]?.Keys ?? [];
    }
    return found;
  };

  return (await Promise.all(chunks.map(fetchChunk))).flat();
}
