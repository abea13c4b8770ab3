/**
 * Account exports (POST /exports; docs/exports.md, "How it works").
 *
 *   Export head   PK EXPORT#<acc>#<exp>  SK HEAD  GSI1PK ACCOUNT#<acc>#EXPORTS  GSI1SK <exp>  (TTL: expires_at)
 *   Running slot  PK EXPORT#<acc>#RUNNING  SK RUNNING  export_id  (TTL: the export's): one running export per
 *                 account, taken in the same transaction that creates the head (a conditional put: two POSTs at
 *                 once cannot both start one), given back when the export completes
 *
 * The head holds where the export stands (kind, list position), what each kind has written (records,
 * the size of each part file) and a lease: the request working it claims it with a conditional write
 * (no live lease), saves each stretch conditional on its lease and the stretch count (a request that
 * lost its lease cannot save), and gives the lease back when its time budget is spent. The part files
 * themselves are in the mail bucket (shared/domain/exports/export.ts, partKey).
 */
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportHead, ExportProgress, ExportStatus, KindTotals, ExportKind } from '../../domain/exports/export';
import type { Page } from './cursor';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs } from './erasures';
import { cancelledConditionIndexes, isConditionFailure, transactWrite, updateIfCondition, withoutKeys, type Table } from './table';

export const exportKeys = {
  head: (accountId: string, exportId: string) => ({ PK: `EXPORT#${accountId}#${exportId}`, SK: 'HEAD' }),
  byAccount: (accountId: string) => `ACCOUNT#${accountId}#EXPORTS`,
  running: (accountId: string) => ({ PK: `EXPORT#${accountId}#RUNNING`, SK: 'RUNNING' }),
};

/** What creating an export found: created, or the account's running export (its id) holding the slot. */
export type CreateOutcome = { kind: 'created' } | { kind: 'busy'; exportId: string };

function headFrom(item: Record<string, unknown>): ExportHead {
  const { type: _type, lease_until: _lease, ...rest } = withoutKeys(item);
  return rest as unknown as ExportHead;
}

/** An expired head reads as absent (DynamoDB's TTL deletes lazily). */
function live(item: Record<string, unknown> | null | undefined, nowMs: number): Record<string, unknown> | null {
  return !item || (typeof item.ttl === 'number' && item.ttl <= nowMs / 1000) ? null : item;
}

/** What one saved stretch changes on the head. */
export interface ExportStretchUpdate {
  progress: ExportProgress;
  totals: Record<ExportKind, KindTotals>;
}

export class ExportRepository {
  constructor(private readonly table: Table) {}

  /**
   * A new export, claimed by the request that creates it until `leaseUntilMs`, and the account's running
   * slot taken for it, in one transaction: `busy` (naming the export holding the slot) when another export
   * of the account is running. A slot past its TTL (the export expired unfinished) is taken over.
   */
  async create(head: ExportHead, leaseUntilMs: number, nowMs: number): Promise<CreateOutcome> {
    const ttl = Math.floor(Date.parse(head.expires_at) / 1000);
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: { ...exportKeys.running(head.account_id), type: 'export_slot', export_id: head.id, ttl },
            ConditionExpression: 'attribute_not_exists(PK) OR #ttl <= :nowSeconds',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':nowSeconds': Math.floor(nowMs / 1000) },
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...exportKeys.head(head.account_id, head.id),
              GSI1PK: exportKeys.byAccount(head.account_id),
              GSI1SK: head.id,
              type: 'export',
              ...head,
              // Its files' addresses are referenced as they are written (nameAddresses): an erasure finds it.
              [ADDRESS_REFS_MARK]: ADDRESS_REFS_VERSION,
              lease_until: leaseUntilMs,
              ttl,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ]);
      return { kind: 'created' };
    } catch (error) {
      if (!cancelledConditionIndexes(error).includes(0)) throw error;
      const { Item } = await this.table.client.send(
        new GetCommand({ TableName: this.table.name, Key: exportKeys.running(head.account_id), ConsistentRead: true }),
      );
      return { kind: 'busy', exportId: typeof Item?.export_id === 'string' ? Item.export_id : '' };
    }
  }

  /** Gives the account's running slot back, if `exportId` still holds it (a repeat changes nothing). */
  async release(accountId: string, exportId: string): Promise<void> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: exportKeys.running(accountId),
          ConditionExpression: 'export_id = :id',
          ExpressionAttributeValues: { ':id': exportId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** The head, or null (unknown id, another account's, or expired). */
  async get(accountId: string, id: string, nowMs: number): Promise<ExportHead | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: exportKeys.head(accountId, id), ConsistentRead: true }),
    );
    const item = live(Item, nowMs);
    return item ? headFrom(item) : null;
  }

  /** Claims a running export until `leaseUntilMs` when no other request holds a live lease; null when refused (done, busy or gone). */
  async claim(accountId: string, id: string, nowMs: number, leaseUntilMs: number): Promise<ExportHead | null> {
    const item = await updateIfCondition(this.table, {
      Key: exportKeys.head(accountId, id),
      UpdateExpression: 'SET lease_until = :until',
      ConditionExpression:
        'attribute_exists(PK) AND #status = :running AND (attribute_not_exists(lease_until) OR lease_until < :now) AND #ttl > :nowSeconds',
      ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':until': leaseUntilMs, ':running': 'running', ':now': nowMs, ':nowSeconds': Math.floor(nowMs / 1000) },
    });
    return item ? headFrom(item) : null;
  }

  /**
   * Saves one stretch (its part files are already in the bucket): the new position and totals, if the
   * claim is still this request's and no other stretch was saved since it read the head. False when the
   * claim was lost: the caller stops.
   */
  async saveStretch(head: ExportHead, leaseUntilMs: number, update: ExportStretchUpdate, nowIso: string): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: exportKeys.head(head.account_id, head.id),
      UpdateExpression: 'SET progress = :progress, totals = :totals, stretches = :next, updated_at = :at',
      ConditionExpression: 'stretches = :stretches AND lease_until = :lease',
      ExpressionAttributeValues: {
        ':progress': update.progress,
        ':totals': update.totals,
        ':next': head.stretches + 1,
        ':at': nowIso,
        ':stretches': head.stretches,
        ':lease': leaseUntilMs,
      },
    });
    if (!item) return false;
    Object.assign(head, headFrom(item));
    return true;
  }

  /** Ends this request's claim: `completed` when every kind is written, else the lease given back for the next request. */
  async finish(head: ExportHead, leaseUntilMs: number, status: ExportStatus, nowIso: string): Promise<boolean> {
    const completed = status === 'completed';
    const item = await updateIfCondition(this.table, {
      Key: exportKeys.head(head.account_id, head.id),
      UpdateExpression: completed ? 'SET #status = :status, completed_at = :at, updated_at = :at REMOVE lease_until' : 'REMOVE lease_until',
      ConditionExpression: 'stretches = :stretches AND lease_until = :lease',
      ...(completed ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: {
        ...(completed ? { ':status': status, ':at': nowIso } : {}),
        ':stretches': head.stretches,
        ':lease': leaseUntilMs,
      },
    });
    if (!item) return false;
    Object.assign(head, headFrom(item));
    if (completed) await this.release(head.account_id, head.id);
    return true;
  }

  /**
   * The address references of the people a part file names (./erasures.ts; docs/erasure.md): one per
   * address and export (a part naming an address another part named writes the same item again), expiring
   * with the export. Written before the file, so an erasure that runs after the file exists finds it.
   */
  async nameAddresses(head: Pick<ExportHead, 'account_id' | 'id' | 'expires_at'>, addresses: readonly string[]): Promise<void> {
    const ttl = Math.floor(Date.parse(head.expires_at) / 1000);
    await writeAddressRefs(this.table, head.account_id, addresses, 'export', exportKeys.head(head.account_id, head.id), ttl);
  }

  /**
   * The record keys of the account's exports whose files' addresses were never referenced (made before the
   * references existed: at most 7 days' worth; an erasure deletes them whole). One Query of the account's
   * exports (GSI1, a week of them).
   */
  async unindexed(accountId: string): Promise<{ PK: string; SK: string }[]> {
    const found: { PK: string; SK: string }[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          FilterExpression: 'attribute_not_exists(#mark)',
          ExpressionAttributeNames: { '#mark': ADDRESS_REFS_MARK },
          ExpressionAttributeValues: { ':pk': exportKeys.byAccount(accountId) },
          ProjectionExpression: 'PK, SK',
          ExclusiveStartKey: start,
        }),
      );
      found.push(...(page.Items ?? []).map((item) => ({ PK: String(item.PK), SK: String(item.SK) })));
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  }

  /** The account's exports, newest first (expired ones, not yet deleted by TTL, left out). */
  list(accountId: string, page: PageRequest, nowMs: number): Promise<Page<ExportHead>> {
    return queryGsi1NewestFirst(this.table, exportKeys.byAccount(accountId), page, headFrom, undefined, { unexpiredAt: nowMs });
  }
}
