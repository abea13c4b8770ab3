/** One page of a key-ordered query: asks for limit+1 items so `has_more` is exact. */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor, type Page } from './cursor';
import type { Table } from './table';

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export async function queryPage<T>(
  table: Table,
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  page: PageRequest,
  /** Attributes of the partition the cursor must belong to. */
  partition: Record<string, string>,
  /** Key attributes of an item, used to build the cursor. */
  keyOf: (item: Record<string, any>) => Record<string, string>,
  map: (item: Record<string, any>) => T,
): Promise<Page<T>> {
  const result = await table.client.send(
    new QueryCommand({
      ...input,
      TableName: table.name,
      Limit: page.limit + 1,
      ExclusiveStartKey: decodeCursor(page.cursor, partition),
    }),
  );
  const items = result.Items ?? [];
  const hasMore = items.length > page.limit;
  const pageItems = items.slice(0, page.limit);
  const last = pageItems[pageItems.length - 1];
  return {
    items: pageItems.map(map),
    next_cursor: hasMore && last ? encodeCursor(keyOf(last)) : null,
  };
}
