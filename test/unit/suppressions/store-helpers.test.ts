/** The store helpers' control flow against a scripted DynamoDB client (the real database cannot be made to throttle). */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { queryPage } from '#shared/adapters/store/paginate';
import { batchGetItems } from '#shared/adapters/store/suppressions';
import { mapBounded } from '#shared/lib/concurrency';
import { decodeCursor, encodeCursor } from '#shared/adapters/store/cursor';
import type { Table } from '#shared/adapters/store/table';

function scriptedTable(respond: (input: any, call: number) => any): { table: Table; calls: any[] } {
  const calls: any[] = [];
  const client = {
    send: async (command: { input: unknown }) => {
      calls.push(command);
      return respond(command.input, calls.length);
    },
  };
  return { table: { client: client as unknown as Table['client'], name: 't' }, calls };
}

describe('batchGetItems', () => {
  const key = (i: number) => ({ PK: `P${i}`, SK: 'S' });

  it('chunks by 100, drops duplicate keys and retries UnprocessedKeys until done', async () => {
    const seenKeys: string[] = [];
    const { table, calls } = scriptedTable((input) => {
      const keys = input.RequestItems.t.Keys as { PK: string }[];
      expect(keys.length).toBeLessThanOrEqual(100);
      // Process the first half of each request, leave the rest unprocessed.
      const processed = keys.slice(0, Math.ceil(keys.length / 2));
      const left = keys.slice(processed.length);
      seenKeys.push(...processed.map((k) => k.PK));
      return { Responses: { t: processed.map((k) => ({ ...k, email: k.PK })) }, UnprocessedKeys: left.length ? { t: { Keys: left } } : {} };
    });
    const keys = [...Array.from({ length: 250 }, (_, i) => key(i)), key(3), key(7)];
    const items = await batchGetItems(table, keys, { projection: ['email'], consistentRead: true });
    expect(items.map((i) => i.PK).sort()).toEqual(Array.from({ length: 250 }, (_, i) => `P${i}`).sort());
    expect(new Set(seenKeys).size).toBe(250);
    expect(calls.every((c) => c instanceof BatchGetCommand)).toBe(true);
    expect(calls[0].input.RequestItems.t).toMatchObject({
      ConsistentRead: true,
      ProjectionExpression: '#p0',
      ExpressionAttributeNames: { '#p0': 'email' },
    });
    expect(calls.length).toBeGreaterThan(3);
  });

  it('throws rather than silently missing keys DynamoDB never processes', async () => {
    const { table } = scriptedTable((input) => ({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: input.RequestItems.t.Keys } } }));
    await expect(batchGetItems(table, [key(1)], { maxAttempts: 3 })).rejects.toThrow(/unprocessed after 3 attempts/);
  });

  it('makes no request for no keys', async () => {
    const { table, calls } = scriptedTable(() => ({}));
    expect(await batchGetItems(table, [])).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});

describe('queryPage', () => {
  const item = (i: number, reason = 'manual') => ({ PK: `P${i}`, SK: 'S', G: 'g', reason });
  const keyOf = (it: Record<string, any>) => ({ PK: it.PK, SK: it.SK, G: it.G });

  it('without a filter: one request for limit+1 items, as before', async () => {
    const { table, calls } = scriptedTable(() => ({ Items: [item(1), item(2), item(3)], LastEvaluatedKey: keyOf(item(3)) }));
    const page = await queryPage(table, { KeyConditionExpression: 'x' }, { limit: 2 }, { G: 'g' }, keyOf, (i) => i.PK);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBeInstanceOf(QueryCommand);
    expect(calls[0].input.Limit).toBe(3);
    expect(page).toEqual({ items: ['P1', 'P2'], next_cursor: encodeCursor(keyOf(item(2))) });
  });

  it('without a filter, a read cut short by DynamoDB (1 MB) goes on from where it stopped', async () => {
    const reads = [
      { Items: [item(1)], LastEvaluatedKey: keyOf(item(1)) },
      { Items: [item(2), item(3)], LastEvaluatedKey: keyOf(item(3)) },
    ];
    const { table, calls } = scriptedTable((_, call) => reads[call - 1]);
    const page = await queryPage(table, { KeyConditionExpression: 'x' }, { limit: 2 }, { G: 'g' }, keyOf, (i) => i.PK);
    expect(calls).toHaveLength(2);
    expect(calls[1].input.ExclusiveStartKey).toEqual(keyOf(item(1)));
    expect(page).toEqual({ items: ['P1', 'P2'], next_cursor: encodeCursor(keyOf(item(2))) });
  });

  it('with a filter: queries on from where it stopped until limit+1 matches; cursor is the last returned item', async () => {
    // Three reads: 1 match, 0 matches, 2 matches (stopping after the first 3 total would miss none).
    const reads = [
      { Items: [item(1, 'bounce')], LastEvaluatedKey: keyOf(item(4)) },
      { Items: [], LastEvaluatedKey: keyOf(item(8)) },
      { Items: [item(9, 'bounce'), item(12, 'bounce')], LastEvaluatedKey: keyOf(item(12)) },
    ];
    const { table, calls } = scriptedTable((_, call) => reads[call - 1]);
    const page = await queryPage(
      table,
      { KeyConditionExpression: 'x', FilterExpression: 'f' },
      { limit: 2 },
      { G: 'g' },
      keyOf,
      (i) => i.PK,
    );
    expect(calls.map((c) => c.input.Limit)).toEqual([3, 6, 12]);
    expect(calls.map((c) => c.input.ExclusiveStartKey)).toEqual([undefined, keyOf(item(4)), keyOf(item(8))]);
    expect(page.items).toEqual(['P1', 'P9']);
    expect(decodeCursor(page.next_cursor!, { G: 'g' })).toEqual(keyOf(item(9)));
  });

  it('with a filter that reaches the end: no cursor', async () => {
    const { table } = scriptedTable(() => ({ Items: [item(1, 'bounce')] }));
    const page = await queryPage(
      table,
      { KeyConditionExpression: 'x', FilterExpression: 'f' },
      { limit: 2 },
      { G: 'g' },
      keyOf,
      (i) => i.PK,
    );
    expect(page).toEqual({ items: ['P1'], next_cursor: null });
  });

  it('with a very selective filter: bounded requests, then a short page that resumes where reading stopped', async () => {
    let n = 0;
    const { table, calls } = scriptedTable(() => ({ Items: [], LastEvaluatedKey: keyOf(item(++n)) }));
    const page = await queryPage(
      table,
      { KeyConditionExpression: 'x', FilterExpression: 'f' },
      { limit: 25 },
      { G: 'g' },
      keyOf,
      (i) => i.PK,
      { maxRequests: 4 },
    );
    expect(calls).toHaveLength(4);
    expect(calls.map((c) => c.input.Limit)).toEqual([26, 52, 104, 208]);
    expect(page.items).toEqual([]);
    expect(decodeCursor(page.next_cursor!, { G: 'g' })).toEqual(keyOf(item(4)));
  });

  it('caps the filtered batch size', async () => {
    let n = 0;
    const { table, calls } = scriptedTable(() => ({ Items: [], LastEvaluatedKey: keyOf(item(++n)) }));
    await queryPage(table, { KeyConditionExpression: 'x', FilterExpression: 'f' }, { limit: 100 }, { G: 'g' }, keyOf, (i) => i, {});
    expect(calls.map((c) => c.input.Limit)).toEqual([101, 202, 404, 808, 1000, 1000, 1000, 1000]);
  });
});

describe('mapBounded', () => {
  it('keeps order and the concurrency bound', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
    expect(await mapBounded([], 3, async () => 1)).toEqual([]);
  });
});
