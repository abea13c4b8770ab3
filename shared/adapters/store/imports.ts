/**
 * Imports (POST /migrations; docs/imports.md, "Storage").
 *
 *   Import head   PK MIGRATION#<acc>#<mig>  SK HEAD        GSI1PK ACCOUNT#<acc>#MIGRATIONS  GSI1SK <mig>
 *   Report part   PK MIGRATION#<acc>#<mig>  SK PART#<000000 n>
 *
 * The head holds where the import stands and its totals; each report part holds what one stretch of
 * work did (the items of a few provider entries, and the totals they add). A request claims the head
 * (conditional on the number of finished requests its cursor names, and on no live lease), then saves
 * each stretch with one transaction: the part, and the head's new progress and totals (conditional on
 * the claim still being its own). A crash between stretches loses nothing that was saved, and the next
 * request resumes exactly after the last saved stretch. Dry runs are kept one hour (TTL) for their
 * continuations, never listed and never readable by GET (spec: previews are not kept).
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportHead, ImportProgress, ImportTotals } from '../../domain/imports/import';
import type { ImportStatus, ReportPart } from '../../domain/imports/report';
import type { Page } from './cursor';
import { keys } from './keys';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import { retentionTtl } from '../../domain/accounts/retention';
import { serviceClock } from '../clock';
import { retentionLookupFor } from './account-retention';
import {
  cancelledConditionIndexes,
  isConditionFailure,
  isWriteConflict,
  itemOfRefusedWrite,
  queryAllWithPrefix,
  transactWrite,
  updateIfCondition,
  withoutKeys,
  type Table,
} from './table';

/** How long a dry run's state lives (its continuations must come within this). */
export const DRY_RUN_TTL_SECONDS = 3600;

export const importPartSk = (index: number) => `PART#${String(index).padStart(6, '0')}`;

export type ClaimOutcome =
  | { kind: 'claimed'; head: ImportHead }
  | { kind: 'stale'; head: ImportHead }
  | { kind: 'busy'; head: ImportHead }
  | { kind: 'not_found' };

/** What a stretch of work changes on the head. */
export interface StretchUpdate {
  progress: ImportProgress;
  totals: ImportTotals;
  part: ReportPart;
}

/** What the end of a request changes on the head. */
export interface FinishUpdate {
  status: ImportStatus;
  has_more: boolean;
  retry_after_seconds: number | null;
}

function headFrom(item: Record<string, unknown>): ImportHead {
  const { type: _type, lease_until: _lease, ...rest } = withoutKeys(item);
  return rest as unknown as ImportHead;
}

/** The stored head item, or null for none or an expired dry run (TTL deletion is lazy). */
function live(item: Record<string, unknown> | null | undefined, nowMs: number): Record<string, unknown> | null {
  return !item || (typeof item.ttl === 'number' && item.ttl < nowMs / 1000) ? null : item;
}

export class ImportRepository {
  constructor(private readonly table: Table) {}

  /** A dry run's hour, else the account's imports_days from the import's creation (docs/retention.md); the parts share the head's. */
  private async ttlOf(head: Pick<ImportHead, 'account_id' | 'dry_run' | 'created_at'>): Promise<Record<string, number>> {
    if (head.dry_run) return { ttl: Math.floor(Date.parse(head.created_at) / 1000) + DRY_RUN_TTL_SECONDS };
    return { ttl: retentionTtl(await retentionLookupFor(this.table).daysFor(head.account_id, 'imports_days'), head.created_at) };
  }

  /** A new import, claimed by the request that creates it until `leaseUntilMs`. */
  async create(head: ImportHead, leaseUntilMs: number): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.migration(head.account_id, head.id),
          ...(head.dry_run ? {} : { GSI1PK: keys.migrationsByAccount(head.account_id), GSI1SK: head.id }),
          type: 'migration',
          ...head,
          lease_until: leaseUntilMs,
          ...(await this.ttlOf(head)),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  /** The head, or null (unknown id, another account's, or an expired dry run). */
  async get(accountId: string, id: string, nowMs: number): Promise<ImportHead | null> {
    const item = await this.item(accountId, id, nowMs);
    return item ? headFrom(item) : null;
  }

  /** The stored head item, lease included. */
  private async item(accountId: string, id: string, nowMs: number): Promise<Record<string, unknown> | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.migration(accountId, id), ConsistentRead: true }),
    );
    return live(Item, nowMs);
  }

  /**
   * Claims the import for the request continuing after `requests` finished ones: only when no other
   * request holds a live lease on it. `stale`: the cursor is older than the import (answered with the
   * report and the current cursor); `busy`: another request works it now. A refused claim answers the
   * head as it stands (ReturnValuesOnConditionCheckFailure): one round trip, read again only when absent.
   */
  async claim(accountId: string, id: string, requests: number, nowMs: number, leaseUntilMs: number): Promise<ClaimOutcome> {
    let refused: Record<string, unknown> | null;
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.migration(accountId, id),
          UpdateExpression: 'SET lease_until = :until',
          // An expired preview (TTL deletion is lazy) is gone for its continuations too.
          ConditionExpression:
            'attribute_exists(PK) AND requests = :requests AND has_more = :true AND (attribute_not_exists(lease_until) OR lease_until < :now) AND (attribute_not_exists(#ttl) OR #ttl > :nowSeconds)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':until': leaseUntilMs,
            ':requests': requests,
            ':true': true,
            ':now': nowMs,
            ':nowSeconds': Math.floor(nowMs / 1000),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'claimed', head: headFrom(Attributes ?? {}) };
    } catch (error) {
      // Refused by its condition (the item as it stood rides on the error), or by the transaction of the
      // request holding the lease, saving a stretch at this moment (the item is read: it is busy or done).
      if (!isConditionFailure(error) && !isWriteConflict(error)) throw error;
      refused = itemOfRefusedWrite(error);
    }
    const stored = refused ? live(refused, nowMs) : await this.item(accountId, id, nowMs);
    if (!stored) return { kind: 'not_found' };
    const head = headFrom(stored);
    if (head.requests !== requests || !head.has_more) return { kind: 'stale', head };
    // Our own lease: the SDK retried a claim that had gone through (its answer was lost), and the
    // retry's condition saw the lease it had just set.
    if (stored.lease_until === leaseUntilMs) return { kind: 'claimed', head };
    return { kind: 'busy', head };
  }

  /**
   * Saves one stretch: the part, and the head's progress and totals, in one transaction conditional on
   * the claim (the request count it claimed and its lease). False when the claim was lost (its lease
   * ran out and another request took over): the caller stops without answering more.
   */
  async saveStretch(head: ImportHead, leaseUntilMs: number, update: StretchUpdate, nowIso: string): Promise<boolean> {
    const key = keys.migration(head.account_id, head.id);
    try {
      // The token makes a retry of this very save (the SDK retries when an answer is lost) a no-op
      // instead of a refusal that would read as a lost claim. It names the request's claim (its lease)
      // and the part, so another request redoing the stretch after a crash is a new transaction.
      const token = createHash('sha256').update(`${head.id}:${head.requests}:${head.parts}:${leaseUntilMs}`).digest('hex').slice(0, 36);
      await transactWrite(
        this.table,
        [
          {
            Put: {
              TableName: this.table.name,
              Item: { PK: key.PK, SK: importPartSk(head.parts), type: 'migration_part', part: update.part, ...(await this.ttlOf(head)) },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Update: {
              TableName: this.table.name,
              Key: key,
              UpdateExpression: 'SET progress = :progress, totals = :totals, parts = :next, updated_at = :at',
              ConditionExpression: 'requests = :requests AND parts = :parts AND lease_until = :lease',
              ExpressionAttributeValues: {
                ':progress': update.progress,
                ':totals': update.totals,
                ':next': head.parts + 1,
                ':at': nowIso,
                ':requests': head.requests,
                ':parts': head.parts,
                ':lease': leaseUntilMs,
              },
            },
          },
        ],
        token,
      );
    } catch (error) {
      if (isConditionFailure(error) || cancelledConditionIndexes(error).length > 0) return false;
      throw error;
    }
    head.parts += 1;
    head.progress = update.progress;
    head.totals = update.totals;
    head.updated_at = nowIso;
    return true;
  }

  /** Ends a request: its status, whether there is more, and the lease released. False when the claim was lost. */
  async finish(head: ImportHead, leaseUntilMs: number, update: FinishUpdate, nowIso: string): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.migration(head.account_id, head.id),
      UpdateExpression:
        'SET #status = :status, has_more = :more, retry_after_seconds = :retry, requests = :next, updated_at = :at REMOVE lease_until',
      ConditionExpression: 'requests = :requests AND lease_until = :lease',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': update.status,
        ':more': update.has_more,
        ':retry': update.retry_after_seconds,
        ':next': head.requests + 1,
        ':at': nowIso,
        ':requests': head.requests,
        ':lease': leaseUntilMs,
      },
    });
    if (item) {
      Object.assign(head, headFrom(item));
      return true;
    }
    // Refused: by a lost claim, or because this very update went through and the SDK retried it (the
    // stored head then has our request counted and no lease).
    const stored = await this.item(head.account_id, head.id, Date.parse(nowIso));
    if (!stored || stored.requests !== head.requests + 1 || stored.lease_until !== undefined || stored.updated_at !== nowIso) return false;
    Object.assign(head, headFrom(stored));
    return true;
  }

  /** Gives the claim back without counting a request (nothing was done: a provider refused the first call). */
  async release(head: ImportHead, leaseUntilMs: number): Promise<void> {
    await updateIfCondition(this.table, {
      Key: keys.migration(head.account_id, head.id),
      UpdateExpression: 'REMOVE lease_until',
      ConditionExpression: 'requests = :requests AND lease_until = :lease',
      ExpressionAttributeValues: { ':requests': head.requests, ':lease': leaseUntilMs },
    });
  }

  /** Every report part of an import, in order. */
  parts(accountId: string, id: string): Promise<ReportPart[]> {
    return queryAllWithPrefix(this.table, { PK: keys.migration(accountId, id).PK, SKPrefix: 'PART#' }, (item) => item.part as ReportPart);
  }

  /** Kept imports (not dry runs), newest first. */
  list(accountId: string, page: PageRequest, nowMs: number = serviceClock.now().getTime()): Promise<Page<ImportHead>> {
    // Those past their retention are left out (DynamoDB's TTL deletes lazily: docs/retention.md).
    return queryGsi1NewestFirst(this.table, keys.migrationsByAccount(accountId), page, headFrom, undefined, { unexpiredAt: nowMs });
  }
}
