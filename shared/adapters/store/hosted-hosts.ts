/**
 * The items of hosted hosts (hosted MTA-STS policies: ./mta-sts-hosting.ts; link domains: ./link-domains.ts):
 * one item per host, carrying its next step in the due index's own partition of its kind (GSI2 `<PARTITION>` /
 * `<due ISO>#<key>`), which the domain-health task reads. Every write is conditional on the stored `version`.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import type { HostHosting } from '../../domain/domains/hosting/host-hosting';
import { batchGetItems } from './batch-get';
import { decodeItem } from './decode';
import { pastDueSortKeys } from './due-work';
import { freeSlotItem, takeSlotItem } from './counters';
import { cancelledConditionIndexes, isConditionFailure, isTransactionConflict, transactWrite, type Table } from './table';

export interface StoredHostState<T> {
  hosting: T;
  /** When its next step is due; null when none is (failed). */
  nextStepAt: string | null;
}

/** How one kind's items are keyed and read. */
export interface HostedItemsLayout<T extends HostHosting> {
  /** The item's `type` attribute and what decoding errors name. */
  type: string;
  schema: z.ZodType<T>;
  keyOf(hosting: T): string;
  itemKey(key: string): { PK: string; SK: string };
  duePartition: string;
}

export const hostDueKey = (partition: string, key: string, at: Date) => ({ GSI2PK: partition, GSI2SK: `${at.toISOString()}#${key}` });

const versionIs = (version: number) => ({
  ConditionExpression: '#version = :version',
  ExpressionAttributeNames: { '#version': 'version' },
  ExpressionAttributeValues: { ':version': version },
});

export class HostedItems<T extends HostHosting> {
  constructor(
    protected readonly table: Table,
    protected readonly layout: HostedItemsLayout<T>,
  ) {}

  /** The host of `key`; `consistent` for a step about to write. */
  async get(key: string, options: { consistent: boolean } = { consistent: true }): Promise<StoredHostState<T> | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.layout.itemKey(key), ConsistentRead: options.consistent }),
    );
    if (!Item) return null;
    const sortKey = typeof Item.GSI2SK === 'string' ? Item.GSI2SK : null;
    return {
      hosting: decodeItem(this.layout.schema, Item, this.layout.type),
      nextStepAt: sortKey ? sortKey.slice(0, sortKey.indexOf('#')) : null,
    };
  }

  /** The stored hosts of `hostKeys` (eventually consistent, one BatchGetItem per 100), by key; absent keys are not in the map. */
  async getMany(hostKeys: readonly string[]): Promise<Map<string, T>> {
    const items =
      hostKeys.length === 0
        ? []
        : await batchGetItems(
            this.table,
            hostKeys.map((key) => this.layout.itemKey(key)),
          );
    const found = items.map((item) => decodeItem(this.layout.schema, item, this.layout.type));
    return new Map(found.map((hosting) => [this.layout.keyOf(hosting), hosting]));
  }

  protected item(hosting: T, nextStepAt: Date | null): Record<string, unknown> {
    const key = this.layout.keyOf(hosting);
    return {
      ...this.layout.itemKey(key),
      ...(nextStepAt ? hostDueKey(this.layout.duePartition, key, nextStepAt) : {}),
      type: this.layout.type,
      ...hosting,
    };
  }

  /**
   * Writes `hosting` (its `version` one more than the stored one's) if the stored item is still at
   * `hosting.version - 1`: `saved`, or `conflict` when another write came first. `nextStepAt` null takes it out
   * of the due index.
   */
  async save(hosting: T, nextStepAt: Date | null): Promise<'saved' | 'conflict'> {
    if (hosting.version === 1) throw new Error('a new hosted host is stored with create');
    try {
      await this.table.client.send(
        new PutCommand({ TableName: this.table.name, Item: this.item(hosting, nextStepAt), ...versionIs(hosting.version - 1) }),
      );
      return 'saved';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /** The delete of the item if still at its `version` (for a transaction, or alone). */
  protected deleteAt(hosting: T): { TableName: string; Key: { PK: string; SK: string } } & ReturnType<typeof versionIs> {
    return { TableName: this.table.name, Key: this.layout.itemKey(this.layout.keyOf(hosting)), ...versionIs(hosting.version) };
  }

  /** Deletes the item if still at its `version`: `deleted`, or `conflict`. */
  protected async deleteItem(hosting: T): Promise<'deleted' | 'conflict'> {
    try {
      await this.table.client.send(new DeleteCommand(this.deleteAt(hosting)));
      return 'deleted';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * Stores a new host (version 1) if none is stored for its key and its account has fewer than `limit` of its
   * kind (the account's `counter`, ./counters.ts), both in one transaction: `saved`; `conflict` when another
   * write came first (the item exists, or a concurrent transaction on the same items: read again); `limit` at
   * the bound.
   */
  protected async createTakingSlot(hosting: T, nextStepAt: Date, counter: string, limit: number): Promise<'saved' | 'conflict' | 'limit'> {
    if (hosting.version !== 1) throw new Error('a new hosted host has version 1');
    try {
      await transactWrite(this.table, [
        { Put: { TableName: this.table.name, Item: this.item(hosting, nextStepAt), ConditionExpression: 'attribute_not_exists(PK)' } },
        takeSlotItem(this.table, hosting.account_id, counter, limit),
      ]);
      return 'saved';
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0) || isTransactionConflict(error)) return 'conflict';
      if (failed.includes(1)) return 'limit';
      throw error;
    }
  }

  /** Deletes the item if still at its `version`, giving its account's place (`counter`) back in the same transaction. */
  protected async removeFreeingSlot(hosting: T, counter: string): Promise<'deleted' | 'conflict'> {
    try {
      await transactWrite(this.table, [{ Delete: this.deleteAt(hosting) }, freeSlotItem(this.table, hosting.account_id, counter)]);
      return 'deleted';
    } catch (error) {
      if (isConditionFailure(error) || cancelledConditionIndexes(error).length > 0 || isTransactionConflict(error)) return 'conflict';
      throw error;
    }
  }

  /** Keys whose next step was due at or before `now`, oldest first, at most `limit`. */
  async pastDue(now: Date, limit: number): Promise<string[]> {
    const sortKeys = await pastDueSortKeys(this.table, this.layout.duePartition, now.getTime(), limit);
    return sortKeys.map((sortKey) => sortKey.slice(sortKey.indexOf('#') + 1));
  }
}
