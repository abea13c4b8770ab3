/**
 * Stored domain health checks (docs/deliverability.md, "Domain health"): one item per domain,
 * `DOMAINHEALTH#<dom>` / `HEALTH`, holding the last check (shared/domain/domains/health/history.ts) and the
 * time of the next one in the due index's own partition (GSI2 `HEALTHDUE` / `<next check ISO>#<dom>`),
 * which the domain-health task reads. A check is saved conditionally on the version it was merged with, so
 * two checks racing store one result and raise one event. TTL: a few days after the next check was due, so
 * the item of a deleted domain goes even if no task pass ever sees it.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredHealth } from '../../domain/domains/health/history';
import { storedHealthSchema } from '../../domain/domains/health/stored-schema';
import { decodeItem } from './decode';
import { pastDueSortKeys } from './due-work';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

/** The item stays this long past its next check's due time. */
const KEEP_PAST_DUE_SECONDS = 3 * 86_400;

export const healthDueKey = (domainId: string, at: Date) => ({ GSI2PK: keys.healthDue(), GSI2SK: `${at.toISOString()}#${domainId}` });
const expiry = (at: Date) => Math.floor(at.getTime() / 1000) + KEEP_PAST_DUE_SECONDS;

export interface SaveHealthRequest {
  domainId: string;
  accountId: string;
  health: StoredHealth;
  /** The next scheduled check. */
  nextCheckAt: Date;
}

export class DomainHealthRepository {
  constructor(private readonly table: Table) {}

  /** The last stored check (strongly consistent), or null when the domain was never checked. */
  async get(domainId: string): Promise<(StoredHealth & { next_check_at: string | null }) | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.domainHealth(domainId), ConsistentRead: true }),
    );
    if (!Item || Item.checked_at === undefined) return null;
    const health = decodeItem(storedHealthSchema, Item, 'DomainHealth');
    const sortKey = typeof Item.GSI2SK === 'string' ? Item.GSI2SK : null;
    return { ...health, next_check_at: sortKey ? sortKey.slice(0, sortKey.indexOf('#')) : null };
  }

  /**
   * Stores `health` if the stored check is still the one it was merged with (`health.version - 1`; an item
   * that only carries a due time counts as version 0): `saved`, or `conflict` when another check stored first.
   */
  async save(request: SaveHealthRequest): Promise<'saved' | 'conflict'> {
    const previous = request.health.version - 1;
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...keys.domainHealth(request.domainId),
            ...healthDueKey(request.domainId, request.nextCheckAt),
            type: 'domain_health',
            domain_id: request.domainId,
            account_id: request.accountId,
            ...request.health,
            ttl: expiry(request.nextCheckAt),
          },
          ConditionExpression: previous === 0 ? 'attribute_not_exists(#version)' : '#version = :previous',
          ExpressionAttributeNames: { '#version': 'version' },
          ...(previous === 0 ? {} : { ExpressionAttributeValues: { ':previous': previous } }),
        }),
      );
      return 'saved';
    } catch (error) {
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /** Brings the domain's next check forward to `at` (a verification just succeeded); creates the item when absent. */
  async checkAt(domainId: string, accountId: string, at: Date): Promise<void> {
    const due = healthDueKey(domainId, at);
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.domainHealth(domainId),
        UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk, #type = :type, domain_id = :dom, account_id = :acc, #ttl = :ttl',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':pk': due.GSI2PK,
          ':sk': due.GSI2SK,
          ':type': 'domain_health',
          ':dom': domainId,
          ':acc': accountId,
          ':ttl': expiry(at),
        },
      }),
    );
  }

  /** Ids of the domains whose check was due at or before `now`, oldest first, at most `limit`. */
  async pastDue(now: Date, limit: number): Promise<string[]> {
    const sortKeys = await pastDueSortKeys(this.table, keys.healthDue(), now.getTime(), limit);
    return sortKeys.map((sortKey) => sortKey.slice(sortKey.indexOf('#') + 1));
  }

  /** Forgets the domain's checks (the domain is gone). */
  async remove(domainId: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.domainHealth(domainId) }));
  }
}
