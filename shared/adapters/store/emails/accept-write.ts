/**
 * One attempt at accepting an email (./accept.ts): the transaction built from the current shard plans
 * (the email, its capped usage reservations, its tenant's scheduled-list items, its idempotency record),
 * and what a refused transaction says: an outcome for the caller, the reservations to plan again, or an
 * error that is not contention.
 */
import type { ShardPart } from '#shared/domain/accounts/limits';
import type { RecoveryBounds } from '#shared/domain/reliability/bounds';
import type { IdempotencyStore } from '../idempotency';
import { cancelledConditionIndexes, hasTransactionConflict, type Table, type TransactItem } from '../table';
import { tenantScheduledItems } from '../tenant-scheduled';
import { reserveShardItems, type DeferredUsage, type ReservedCounter } from '../usage';
import { emailPut } from './email-item';
import type { AcceptOutcome, AcceptRequest } from './accept-request';
import type { EmailInternals } from './stored-email';

/** What every attempt of one acceptance shares: the uncapped usage the outbox relay counts, and the item's ttl. */
export interface AcceptBasis {
  ttl: number;
  deferred: DeferredUsage | null;
  /** The uncapped counters, as a scheduled email keeps them to give back on cancellation. */
  deferredCounters: ReservedCounter[];
}

/** One attempt's writes: the email's put, and the transaction's items with where each kind sits in it. */
export interface AcceptWrite {
  reserved: ReservedCounter[];
  put: ReturnType<typeof emailPut>;
  items: TransactItem[];
  /** The reservation items of each capped counter, in order (from position 1). */
  reservationGroups: TransactItem[][];
  /** Position of the tenant's live check, when the email joins a tenant's scheduled list. */
  tenantCheckAt: number | null;
  /** Position of the idempotency record, when there is one (last). */
  idempotencyAt: number | null;
}

export function acceptBasis(request: AcceptRequest, ttl: number, deferred: DeferredUsage | null): AcceptBasis {
  return {
    ttl,
    deferred,
    deferredCounters: request.uncapped.map((r) => ({ scope: r.scope, period: r.period, periodValue: r.periodValue })),
  };
}

/** The attempt's transaction, from the shard plans of the capped counters (one per reservation of `request.capped`). */
export function acceptWrite(
  table: Table,
  deps: { bounds: RecoveryBounds; idempotencyStore?: Pick<IdempotencyStore, 'putItem'> },
  request: AcceptRequest,
  basis: AcceptBasis,
  plans: readonly ShardPart[][],
): AcceptWrite {
  const { email, capped, count } = request;
  const reserved: ReservedCounter[] = capped.map((r, i) => ({
    scope: r.scope,
    period: r.period,
    periodValue: r.periodValue,
    parts: plans[i],
  }));
  const internals: EmailInternals = {
    ...(request.scheduleVersion === undefined ? {} : { schedule_version: request.scheduleVersion }),
    // Kept only for a scheduled email, whose cancellation gives it back; a queued email never reads it, and
    // every later write of the email is sized on the whole item (1 write unit per KB).
    ...(email.status === 'scheduled' && (reserved.length || basis.deferred)
      ? { usage_reserved: { entries: [...reserved, ...basis.deferredCounters], count } }
      : {}),
  };
  const put = emailPut(table, deps.bounds, email, request.body, {
    ...internals,
    ttl: basis.ttl,
    ...(basis.deferred ? { usage_deferred: basis.deferred } : {}),
    ...(request.mime ? ('inline' in request.mime ? { mime_inline: request.mime.inline } : { mime_blob_key: request.mime.blobKey }) : {}),
  });
  const reservationGroups = capped.map((reservation, i) => reserveShardItems(table, email.account_id, reservation, plans[i]!));
  const idempotency = request.idempotency;
  const idempotencyItem = idempotency
    ? deps.idempotencyStore!.putItem(idempotency.accountId, idempotency.key, idempotency.record, idempotency.now)
    : undefined;
  // A tenant's scheduled email is listed for the tenant's deletion, only while the tenant is live (../tenant-scheduled.ts).
  const tenantItems = tenantScheduledItems(table, email);
  const items: TransactItem[] = [{ Put: put }, ...reservationGroups.flat(), ...tenantItems, ...(idempotencyItem ? [idempotencyItem] : [])];
  return {
    reserved,
    put,
    items,
    reservationGroups,
    tenantCheckAt: tenantItems.length > 0 ? 1 + reservationGroups.flat().length : null,
    idempotencyAt: idempotencyItem ? items.length - 1 : null,
  };
}

/**
 * What a refused attempt says: the caller's outcome (its idempotency key or its tenant was taken), or the
 * capped reservations refused (none: only a conflict with another transaction), to plan again. Throws
 * `error` when it is not contention: not a transaction's refusal, or the email's own condition failed.
 */
export function refusalOf(error: unknown, write: AcceptWrite): AcceptOutcome | { refused: number[] } {
  const failed = new Set(cancelledConditionIndexes(error));
  const conflicted = hasTransactionConflict(error);
  if (failed.size === 0 && !conflicted) throw error;
  if (write.idempotencyAt !== null && failed.has(write.idempotencyAt)) return { kind: 'idempotency_taken' };
  if (write.tenantCheckAt !== null && failed.has(write.tenantCheckAt)) return { kind: 'tenant_gone' };
  // Which reservations were refused: map item positions back to reservations, here and only here.
  let position = 1;
  const refused: number[] = [];
  write.reservationGroups.forEach((group, i) => {
    if (group.some((_, j) => failed.has(position + j))) refused.push(i);
    position += group.length;
  });
  // The email's own condition failed: its id exists (a caller-chosen id, sent before).
  if (failed.has(0)) return { kind: 'email_exists' };
  // Nothing was refused: not contention, not ours to retry.
  if (refused.length === 0 && !conflicted) throw error;
  return { refused };
}
