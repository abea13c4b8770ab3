/**
 * Hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): one item per policy domain,
 * `MTASTS#<policy domain>` / `HOSTING` (shared/domain/domains/mta-sts/hosting.ts), read by the MTA-STS
 * function by the host it is asked for, and carrying its next step in the due index's own partition (GSI2
 * `MTASTSDUE` / `<due ISO>#<policy domain>`), which the domain-health task reads. Every write is conditional
 * on the stored `version`: a PUT, a DELETE and a task step racing each other apply one at a time.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storedHostingSchema, type StoredHosting } from '../../domain/domains/mta-sts/hosting';
import { decodeItem } from './decode';
import { pastDueSortKeys } from './due-work';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

export interface StoredHostingState {
  hosting: StoredHosting;
  /** When its next step is due; null when none is (failed). */
  nextStepAt: string | null;
}

const dueKey = (policyDomain: string, at: Date) => ({ GSI2PK: keys.mtaStsDue(), GSI2SK: `${at.toISOString()}#${policyDomain}` });

export class MtaStsHostingRepository {
  constructor(private readonly table: Table) {}

  /** The hosting of a policy domain; `consistent` for a step about to write (the MTA-STS function reads eventually). */
  async get(policyDomain: string, options: { consistent: boolean } = { consistent: true }): Promise<StoredHostingState | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.mtaStsHosting(policyDomain), ConsistentRead: options.consistent }));
    if (!Item) return null;
    const sortKey = typeof Item.GSI2SK === 'string' ? Item.GSI2SK : null;
    return { hosting: decodeItem(storedHostingSchema, Item, 'MtaStsHosting'), nextStepAt: sortKey ? sortKey.slice(0, sortKey.indexOf('#')) : null };
  }

  /**
   * Writes `hosting` (its `version` one more than the stored one's, or 1 for a new item) if the stored item is
   * still at `hosting.version - 1` (absent for 1): `saved`, or `conflict` when another write came first.
   * `nextStepAt` null takes it out of the due index.
   */
  async save(hosting: StoredHosting, nextStepAt: Date | null): Promise<'saved' | 'conflict'> {
    const previous = hosting.version - 1;
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.mtaStsHosting(hosting.policy_domain), ...(nextStepAt ? dueKey(hosting.policy_domain, nextStepAt) : {}), type: 'mta_sts_hosting', ...hosting },
          ConditionExpression: previous === 0 ? 'attribute_not_exists(PK)' : '#version = :previous',
          ...(previous === 0 ? {} : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':previous': previous } }),
        }),
      );
      return 'saved';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /** Deletes the item if still at `version`: `deleted`, or `conflict`. */
  async remove(policyDomain: string, version: number): Promise<'deleted' | 'conflict'> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.mtaStsHosting(policyDomain),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': version },
        }),
      );
      return 'deleted';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /** Policy domains whose next step was due at or before `now`, oldest first, at most `limit`. */
  async pastDue(now: Date, limit: number): Promise<string[]> {
    const sortKeys = await pastDueSortKeys(this.table, keys.mtaStsDue(), now.getTime(), limit);
    return sortKeys.map((sortKey) => sortKey.slice(sortKey.indexOf('#') + 1));
  }
}
