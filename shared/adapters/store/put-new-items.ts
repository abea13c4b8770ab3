/**
 * Writes many items that must be new, in few round trips: up to NEW_ITEMS_PER_TRANSACTION conditional puts
 * (`attribute_not_exists(PK)`) in one TransactWriteItems (DynamoDB's limit is 100 actions), one round trip
 * per hundred instead of a hundred, at two write units an item instead of one ("Capacity management for
 * transactions": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling).
 * An item whose key is taken refuses its whole transaction, naming it and answering the item there
 * (ReturnValuesOnConditionCheckFailure): the transaction is sent again without it. The repositories of
 * suppressions and category opt-outs add their many-address requests through here (./add-new-records.ts).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapBounded } from '../../lib/concurrency';
import { cancelledConditionIndexes, hasTransactionConflict, itemOfRefusedWrite, type Table } from './table';

/** Conditional puts in one transaction. */
export const NEW_ITEMS_PER_TRANSACTION = 100;

/** Transactions of one call in flight at once. */
const TRANSACTIONS_AT_ONCE = 4;

/** Attempts of one transaction cancelled only by another writing the same items (then the error is thrown). */
const CONFLICT_ATTEMPTS = 8;

/** One item's outcome: written, or refused with the item that holds its key (null: removed since, not answered). */
export type NewItemOutcome = { created: true } | { created: false; existing: Record<string, unknown> | null };

/** Puts `items` (distinct keys: one transaction may not name an item twice) unless their key is taken; outcomes in order. */
export async function putNewItems(table: Table, items: readonly Record<string, unknown>[]): Promise<NewItemOutcome[]> {
  const chunks: (readonly Record<string, unknown>[])[] = [];
  for (let at = 0; at < items.length; at += NEW_ITEMS_PER_TRANSACTION) chunks.push(items.slice(at, at + NEW_ITEMS_PER_TRANSACTION));
  return (await mapBounded(chunks, TRANSACTIONS_AT_ONCE, (chunk) => putChunk(table, chunk))).flat();
}

async function putChunk(table: Table, chunk: readonly Record<string, unknown>[]): Promise<NewItemOutcome[]> {
  const outcomes: NewItemOutcome[] = chunk.map(() => ({ created: true }));
  let pending = chunk.map((item, index) => ({ item, index }));
  for (let conflicts = 0; pending.length > 0; ) {
    try {
      await table.client.send(
        new TransactWriteCommand({
          TransactItems: pending.map(({ item }) => ({
            Put: {
              TableName: table.name,
              Item: item,
              ConditionExpression: 'attribute_not_exists(PK)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          })),
        }),
      );
      return outcomes;
    } catch (error) {
      const refused = new Set(cancelledConditionIndexes(error));
      if (refused.size === 0) {
        if (!hasTransactionConflict(error) || ++conflicts >= CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * conflicts));
        continue;
      }
      const reasons = (error as { CancellationReasons?: unknown[] }).CancellationReasons ?? [];
      for (const position of refused)
        outcomes[pending[position]!.index] = { created: false, existing: itemOfRefusedWrite(reasons[position]) };
      pending = pending.filter((_, position) => !refused.has(position));
    }
  }
  return outcomes;
}
