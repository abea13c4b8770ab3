/**
 * One page of a key-ordered query: asks for limit+1 items so `has_more` is exact.
 *
 * With a FilterExpression (DynamoDB applies `Limit` before the filter) the page is filled by querying
 * again from where the last request stopped until limit+1 matching items or the end of the partition;
 * the cursor is the key of the last item returned, so items read past it are read again by the next
 * page. A very selective filter is bounded by `maxRequests`: the page may then hold fewer than `limit`
 * items while `next_cursor` (DynamoDB's LastEvaluatedKey) says there is more to look at. A query
 * without a filter makes one request, and another only when DynamoDB cut the page at 1 MB.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { jsonPayloadBytes } from '../../domain/lambda-payload';
import { decodeCursor, encodeCursor, type Page } from './cursor';
import { unexpiredFilter, type Table } from './table';

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface QueryPageOptions {
  /** Most Query requests one filtered page may make (default 8). */
  maxRequests?: number;
  /** The query's `begins_with(SK, ...)` prefix, which a cursor's sort key must keep. */
  sortKeyPrefix?: string;
  /**
   * Most bytes the page's mapped items may take in a Lambda answer (../../domain/lambda-payload.ts): the
   * page ends before the item that would pass it (never before the first), with a cursor to go on from
   * there. For lists of items that can be large (an automation's definition is up to 256 KB, so 100 of
   * them are far over Lambda's 6 MB response).
   */
  maxPageBytes?: number;
}

/** Largest `Limit` of one filtered request. */
const MAX_FILTERED_BATCH = 1000;

export async function queryPage<T>(
  table: Table,
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  page: PageRequest,
  /** Attributes of the partition the cursor must belong to. */
  partition: Record<string, string>,
  /** Key attributes of an item, used to build the cursor. */
  keyOf: (item: Record<string, unknown>) => Record<string, unknown>,
  map: (item: Record<string, unknown>) => T,
  options: QueryPageOptions = {},
): Promise<Page<T>> {
  const wanted = page.limit + 1;
  const filtered = input.FilterExpression !== undefined;
  const maxRequests = Math.max(1, options.maxRequests ?? 8);
  const items: Record<string, unknown>[] = [];
  const keyNames = input.IndexName ? ['PK', 'SK', `${input.IndexName}PK`, `${input.IndexName}SK`] : ['PK', 'SK'];
  let startKey = decodeCursor(page.cursor, partition, { keyNames, sortKeyPrefix: options.sortKeyPrefix });
  let lastEvaluated: Record<string, unknown> | undefined;
  for (let request = 0; request < maxRequests; request++) {
    const result = await table.client.send(
      new QueryCommand({
        ...input,
        TableName: table.name,
        // Unfiltered: exactly what is needed. Filtered: start there and double, since some are dropped.
        Limit: filtered ? Math.min(MAX_FILTERED_BATCH, wanted * 2 ** request) : wanted,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(result.Items ?? []));
    lastEvaluated = result.LastEvaluatedKey;
    if (items.length >= wanted || !lastEvaluated) break;
    startKey = lastEvaluated;
  }
  let pageItems = items.slice(0, page.limit);
  let mapped = pageItems.map(map);
  const fitting = options.maxPageBytes === undefined ? mapped.length : itemsWithin(mapped, options.maxPageBytes);
  const cut = fitting < pageItems.length;
  if (cut) {
    pageItems = pageItems.slice(0, fitting);
    mapped = mapped.slice(0, fitting);
  }
  const hasMore = cut || items.length > page.limit;
  const last = pageItems[pageItems.length - 1];
  let nextCursor: string | null = hasMore && last ? encodeCursor(keyOf(last)) : null;
  // A page that ran out of requests before filling up (a selective filter, or DynamoDB's 1 MB cut):
  // resume where the reading stopped.
  if (!hasMore && lastEvaluated) nextCursor = encodeCursor(lastEvaluated);
  return { items: mapped, next_cursor: nextCursor };
}

/** How many of `items`, from the first, fit in `maxBytes` of Lambda payload (at least one). */
function itemsWithin(items: readonly unknown[], maxBytes: number): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += jsonPayloadBytes(items[i]) + 1; // and its comma
    if (i > 0 && total > maxBytes) return i;
  }
  return items.length;
}

/**
 * A page of one GSI1 partition, newest first (GSI1SK holds time-sortable ids). With `status`, only the
 * items whose `status` attribute is that value; with `unexpiredAt` (ms), only those whose `ttl` is not past
 * (DynamoDB's TTL deletes lazily: docs/retention.md). Filtered pages: bounded reads, see queryPage.
 */
export function queryGsi1NewestFirst<T>(
  table: Table,
  partition: string,
  page: PageRequest,
  map: (item: Record<string, unknown>) => T,
  status?: string,
  options: Pick<QueryPageOptions, 'maxPageBytes'> & { unexpiredAt?: number } = {},
): Promise<Page<T>> {
  const { unexpiredAt, ...pageOptions } = options;
  const filters: {
    FilterExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  }[] = [];
  if (status !== undefined)
    filters.push({
      FilterExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    });
  if (unexpiredAt !== undefined) filters.push(unexpiredFilter(unexpiredAt));
  return queryPage(
    table,
    {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: Object.assign({ ':pk': partition }, ...filters.map((filter) => filter.ExpressionAttributeValues)),
      ...(filters.length
        ? {
            FilterExpression: filters.map((filter) => `(${filter.FilterExpression})`).join(' AND '),
            ExpressionAttributeNames: Object.assign({}, ...filters.map((filter) => filter.ExpressionAttributeNames)),
          }
        : {}),
      ScanIndexForward: false,
    },
    page,
    { GSI1PK: partition },
    (item) => ({ PK: item.PK, SK: item.SK, GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK }),
    map,
    pageOptions,
  );
}
