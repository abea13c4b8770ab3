/**
 * Hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): one item per policy domain,
 * `MTASTS#<policy domain>` / `HOSTING` (shared/domain/domains/mta-sts/hosting.ts), read by the MTA-STS
 * function by the host it is asked for, and carrying its next step in the due index's own partition (GSI2
 * `MTASTSDUE` / `<due ISO>#<policy domain>`), which the domain-health task reads. Every write is conditional
 * on the stored `version`: a PUT, a DELETE and a task step racing each other apply one at a time. A policy's
 * creation takes a place of its account's bound (counter `ACCOUNT#<id>` / `COUNTER#MTA_STS`, ./counters.ts) in
 * the same transaction, and its removal gives it back in the same transaction as the item's deletion.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storedHostingSchema, type StoredHosting } from '../../domain/domains/mta-sts/hosting';
import { freeSlotItem, takeSlotItem } from './counters';
import { decodeItem } from './decode';
import { pastDueSortKeys } from './due-work';
import { keys } from './keys';
import { cancelledConditionIndexes, isConditionFailure, isTransactionConflict, transactWrite, type Table } from './table';

/** The account's counter of hosted policies (./counters.ts). */
const COUNTER = 'MTA_STS';

export interface StoredHostingState {
  hosting: StoredHosting;
  /** When its next step is due; null when none is (failed). */
  nextStepAt: string | null;
}

export const hostingDueKey = (policyDomain: string, at: Date) => ({
  GSI2PK: keys.mtaStsDue(),
  GSI2SK: `${at.toISOString()}#${policyDomain}`,
});

export class MtaStsHostingRepository {
  constructor(private readonly table: Table) {}

  /** The hosting of a policy domain; `consistent` for a step about to write (the MTA-STS function reads eventually). */
  async get(policyDomain: string, options: { consistent: boolean } = { consistent: true }): Promise<StoredHostingState | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.mtaStsHosting(policyDomain), ConsistentRead: options.consistent }),
    );
    if (!Item) return null;
    const sortKey = typeof Item.GSI2SK === 'string' ? Item.GSI2SK : null;
    return {
      hosting: decodeItem(storedHostingSchema, Item, 'MtaStsHosting'),
      nextStepAt: sortKey ? sortKey.slice(0, sortKey.indexOf('#')) : null,
    };
  }

  /**
   * Stores a new hosting (version 1, `plan_slot`) if none is stored for its policy domain and its account has
   * fewer than `limit` policies, both in one transaction: `saved`; `conflict` when another write came first
   * (the item exists, or a concurrent transaction on the same items: read again); `limit` at the bound.
   */
  async create(hosting: StoredHosting, nextStepAt: Date, limit: number): Promise<'saved' | 'conflict' | 'limit'> {
    if (hosting.version !== 1 || !hosting.plan_slot) throw new Error('a new hosting has version 1 and takes a place (plan_slot)');
    try {
      await transactWrite(this.table, [
        { Put: { TableName: this.table.name, Item: this.item(hosting, nextStepAt), ConditionExpression: 'attribute_not_exists(PK)' } },
        takeSlotItem(this.table, hosting.account_id, COUNTER, limit),
      ]);
      return 'saved';
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0) || isTransactionConflict(error)) return 'conflict';
      if (failed.includes(1)) return 'limit';
      throw error;
    }
  }

  private item(hosting: StoredHosting, nextStepAt: Date | null): Record<string, unknown> {
    return {
      ...keys.mtaStsHosting(hosting.policy_domain),
      ...(nextStepAt ? hostingDueKey(hosting.policy_domain, nextStepAt) : {}),
      type: 'mta_sts_hosting',
      ...hosting,
    };
  }

  /**
   * Writes `hosting` (its `version` one more than the stored one's) if the stored item is still at
   * `hosting.version - 1`: `saved`, or `conflict` when another write came first. `nextStepAt` null takes it out
   * of the due index. A new hosting goes through `create` (the account's bound).
   */
  async save(hosting: StoredHosting, nextStepAt: Date | null): Promise<'saved' | 'conflict'> {
    const previous = hosting.version - 1;
    if (previous === 0) throw new Error("a new hosting is stored with create (the account's bound)");
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: this.item(hosting, nextStepAt),
          ConditionExpression: '#version = :previous',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':previous': previous },
        }),
      );
      return 'saved';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * Deletes the item if still at its `version`, giving its account's place back in the same transaction when it
   * took one (`plan_slot`): `deleted`, or `conflict`.
   */
  async remove(hosting: Pick<StoredHosting, 'policy_domain' | 'version' | 'account_id' | 'plan_slot'>): Promise<'deleted' | 'conflict'> {
    const remove = {
      TableName: this.table.name,
      Key: keys.mtaStsHosting(hosting.policy_domain),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': hosting.version },
    };
    try {
      if (hosting.plan_slot) await transactWrite(this.table, [{ Delete: remove }, freeSlotItem(this.table, hosting.account_id, COUNTER)]);
      else await this.table.client.send(new DeleteCommand(remove));
      return 'deleted';
    } catch (error) {
      if (isConditionFailure(error) || cancelledConditionIndexes(error).length > 0 || isTransactionConflict(error)) return 'conflict';
      throw error;
    }
  }

  /** Policy domains whose next step was due at or before `now`, oldest first, at most `limit`. */
  async pastDue(now: Date, limit: number): Promise<string[]> {
    const sortKeys = await pastDueSortKeys(this.table, keys.mtaStsDue(), now.getTime(), limit);
    return sortKeys.map((sortKey) => sortKey.slice(sortKey.indexOf('#') + 1));
  }
}
