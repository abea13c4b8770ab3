/**
 * The audit log's part of the table (docs/audit-log.md): append-only records, one item each, written with
 * a conditional put (`attribute_not_exists(PK)`) and never updated; DynamoDB's TTL deletes them
 * AUDIT_RETENTION_DAYS after their write.
 *
 *   PK AUDIT#<acc>#<shard>   SK aud_<ULID>   (shard 0..AUDIT_SHARDS-1, from the id's random part)
 *
 * Shards, not days: an account's changes are spread over AUDIT_SHARDS partitions, so no partition takes every
 * change of a busy account, and a listing is AUDIT_SHARDS Queries (a merge, newest first, like
 * ./email-listing.ts) whatever the time range: the ULID sort key is the time, so `since` / `until` are key
 * conditions. Day partitions would make a listing without `since` walk up to 400 days of partitions.
 * Filters (`actor`, `action`) are FilterExpressions, bounded per page (MAX_REQUESTS a shard).
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { AUDIT_ID, AUDIT_RETENTION_DAYS, actorId, auditRecordSchema, type AuditRecord } from '../../domain/audit/audit-record';
import { ValidationError } from '../../domain/errors';
import { isExpired } from '../../domain/accounts/retention';
import { encodeCursor, type Page } from './cursor';
import { decodeItem } from './decode';
import { keys } from './keys';
import type { Table } from './table';

export const AUDIT_SHARDS = 4;
/** Most Queries one shard makes for one filtered page. */
const MAX_REQUESTS = 8;

export const auditPartition = (accountId: string, shard: number) => `AUDIT#${accountId}#${shard}`;

export function auditShard(id: string): number {
  return createHash('sha256').update(id).digest()[0]! % AUDIT_SHARDS;
}

export interface AuditListFilters {
  actor?: string;
  action?: string;
  /** Lowest and highest id of the range (from `since` / `until`). */
  low?: string;
  high?: string;
}

const invalidCursor = () =>
  new ValidationError('The cursor is invalid. Pass next_cursor from the previous page unchanged.', {
    details: { fields: [{ field: 'cursor', message: 'invalid cursor' }] },
  });

function cursorAfter(cursor: string | undefined, owner: string): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (
      parsed &&
      parsed.listing === owner &&
      typeof parsed.after === 'string' &&
      AUDIT_ID.test(parsed.after) &&
      Object.keys(parsed).length === 2
    )
      return parsed.after;
  } catch {
    // below
  }
  throw invalidCursor();
}

export class AuditLogRepository {
  constructor(private readonly table: Table) {}

  /** Appends a record; never overwrites one (a refused put of the same id is an error). */
  async append(record: AuditRecord): Promise<void> {
    const createdMs = Date.parse(record.created_at);
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          PK: auditPartition(record.account_id, auditShard(record.id)),
          SK: record.id,
          type: 'audit_record',
          ...record,
          actor_id: actorId(record.actor),
          ttl: Math.floor(createdMs / 1000) + AUDIT_RETENTION_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  /** A key's name, for the record of its change (null once it is gone: revoked). */
  async apiKeyName(accountId: string, keyId: string): Promise<string | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.apiKey(accountId, keyId),
        ProjectionExpression: '#n',
        ExpressionAttributeNames: { '#n': 'name' },
      }),
    );
    return typeof Item?.name === 'string' ? Item.name : null;
  }

  /**
   * One page of an account's records, newest first. Each shard is read newest first for limit+1 matching
   * records (at most MAX_REQUESTS Queries); a shard stopped early leaves a cutoff (its last read id): only
   * records at or after the newest cutoff are certain to be in order, and the cursor continues after them.
   */
  async list(
    accountId: string,
    filters: AuditListFilters,
    page: { limit: number; cursor?: string },
    nowMs: number,
  ): Promise<Page<AuditRecord>> {
    const owner = `AUDIT#${accountId}`;
    const after = cursorAfter(page.cursor, owner);
    const query = shardQuery(filters, after);
    const shards = await Promise.all(
      Array.from({ length: AUDIT_SHARDS }, (_, shard) => this.readShard(auditPartition(accountId, shard), query, after, page.limit + 1)),
    );
    return pageOf(shards, page.limit, owner, nowMs);
  }

  /** Up to `wanted` matching records of one shard, newest first (at most MAX_REQUESTS Queries), and where it stopped early. */
  private async readShard(partition: string, query: ShardQuery, after: string | undefined, wanted: number): Promise<ShardRead> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    for (let request = 0; request < MAX_REQUESTS; request++) {
      const answer = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
          ExpressionAttributeNames: query.names,
          ExpressionAttributeValues: { ...query.values, ':pk': partition },
          ...(query.conditions.length ? { FilterExpression: query.conditions.join(' AND ') } : {}),
          ScanIndexForward: false,
          Limit: wanted,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(answer.Items ?? []).filter((item) => after === undefined || String(item.SK) < after));
      start = answer.LastEvaluatedKey;
      if (!start || items.length >= wanted) break;
    }
    return { items, cutoff: start ? String(start.SK) : undefined };
  }
}

/** The names, values and filter conditions every shard's Query shares: the id range, and the filters. */
interface ShardQuery {
  names: Record<string, string>;
  values: Record<string, unknown>;
  conditions: string[];
}

/** One shard's records read, and its cutoff when it stopped before its end. */
interface ShardRead {
  items: Record<string, unknown>[];
  cutoff: string | undefined;
}

/** The id range (the filters' `low` / `high`, below the cursor's id) and the actor and action filters. */
function shardQuery(filters: AuditListFilters, after: string | undefined): ShardQuery {
  const low = filters.low ?? 'aud_';
  const high = after !== undefined && (filters.high === undefined || after < filters.high) ? after : (filters.high ?? 'aud_~');
  const query: ShardQuery = { names: { '#pk': 'PK', '#sk': 'SK' }, values: { ':low': low, ':high': high }, conditions: [] };
  if (filters.actor !== undefined) {
    query.names['#actor'] = 'actor_id';
    query.values[':actor'] = filters.actor;
    query.conditions.push('#actor = :actor');
  }
  if (filters.action !== undefined) {
    query.names['#action'] = 'action';
    query.values[':action'] = filters.action;
    query.conditions.push('#action = :action');
  }
  return query;
}

/** The shards merged newest first, down to the newest cutoff: the first `limit` records, and the cursor after them. */
function pageOf(shards: ShardRead[], limit: number, owner: string, nowMs: number): Page<AuditRecord> {
  const cutoff = shards
    .map((shard) => shard.cutoff)
    .filter((value): value is string => value !== undefined)
    .sort()
    .pop();
  const merged = shards
    .flatMap((shard) => shard.items)
    .filter((item) => cutoff === undefined || String(item.SK) >= cutoff)
    .sort((a, b) => (String(a.SK) < String(b.SK) ? 1 : -1));
  const pageItems = merged.slice(0, limit);
  const last = pageItems[pageItems.length - 1];
  const next = merged.length > limit ? String(last!.SK) : cutoff;
  return {
    items: pageItems.filter((item) => !isExpired(item, nowMs)).map((item) => decodeItem(auditRecordSchema, item, 'Audit record')),
    next_cursor: next === undefined ? null : encodeCursor({ listing: owner, after: next }),
  };
}
