/**
 * Accepting an email: the item (which the table's stream hands to the send queue: the outbox), its capped
 * usage reservations and its idempotency record in one transaction (./accept-write.ts), and a refused
 * send's item written on its own for the log.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { firstShardPlan, planShardParts, shardCaps, type ShardPart, type UsageReservation } from '#shared/domain/accounts/limits';
import type { Email } from '#shared/domain/emails/email';
import { DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import type { IdempotencyStore } from '../idempotency';
import { isConditionFailure, transactWrite, type Table } from '../table';
import { deferredUsage, readShardCounts } from '../usage';
import { acceptBasis, acceptWrite, refusalOf, type AcceptBasis } from './accept-write';
import type { AcceptOutcome, AcceptRequest } from './accept-request';
import { batchWrite, putRequests } from '../batch-write';
import { acceptTogether, plainAcceptItem, type TogetherResult } from './accept-together';
import { emailAddressRefItems, emailPut, emailTtl, writeEmailAddressRefs } from './email-item';
import type { EmailInternals, StoredBody } from './stored-email';

/**
 * Attempts at placing capped reservations. A refused attempt means other sends took places (its plan is
 * made again from the counts) or were writing the same shards at that moment (a transaction conflict: it
 * waits a little and tries again). Past the last attempt the counts decide (settleContended).
 */
const MAX_ACCEPT_ATTEMPTS = 25;

/** The longest wait between two attempts after a transaction conflict (the wait grows with the attempts, jittered). */
const MAX_CONFLICT_BACKOFF_MS = 250;

const conflictBackoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_CONFLICT_BACKOFF_MS, 10 * 2 ** Math.min(attempt, 5))));

function limitReached(reservation: UsageReservation, counts: readonly number[]): AcceptOutcome {
  return { kind: 'limit_reached', reservation, used: counts.reduce((sum, n) => sum + n, 0) };
}

export class EmailAcceptance {
  constructor(
    private readonly table: Table,
    private readonly idempotencyStore?: Pick<IdempotencyStore, 'putItem'>,
    private readonly bounds: RecoveryBounds = DEFAULT_RECOVERY_BOUNDS,
  ) {}

  /** Writes an email on its own (a refused send kept for the log; `internals`: what its outbox event needs). */
  async create(email: Email, body: StoredBody, internals: Pick<EmailInternals, 'suppressed_event'> = {}): Promise<void> {
    const ttl = await emailTtl(this.table, email);
    await Promise.all([
      this.table.client.send(new PutCommand(emailPut(this.table, this.bounds, email, body, { ...internals, ttl }))),
      writeEmailAddressRefs(this.table, email, undefined, ttl),
    ]);
  }

  /**
   * Accepts an email: the item (which the table's stream hands to the send queue: the outbox), its capped
   * usage reservations and its idempotency record, in one transaction; a single PutItem when there is
   * nothing else to write, or, for an id the send core made (`freshId`), one BatchWriteItem with the item's
   * address references. Capped counters are sharded: the first try takes a random shard without reading;
   * a refused shard makes this read that counter's shards (one BatchGet) and place the places where there
   * is room, or answer `limit_reached` when the shards together have none. Each retry follows a write by
   * another send, so the loop ends; exactly the remaining places are granted under any concurrency.
   */
  async accept(request: AcceptRequest): Promise<AcceptOutcome> {
    const ttl = await emailTtl(this.table, request.email, request.retentionDays);
    const item = request.freshId ? plainAcceptItem(this.table, this.bounds, request, ttl) : null;
    if (item) {
      // An id the send core has just made exists nowhere: the item needs no condition, so it goes in the same
      // BatchWriteItem as its references (one call where a PutItem and a BatchWriteItem were two; one round
      // trip either way). As before, an error leaves the caller not knowing what was written (its 503).
      await batchWrite(this.table, putRequests([...emailAddressRefItems(request.email, undefined, ttl), item]));
      return { kind: 'accepted', reserved: [] };
    }
    const [outcome] = await Promise.all([
      this.acceptEmail(request, ttl),
      writeEmailAddressRefs(this.table, request.email, request.idempotency, ttl),
    ]);
    return outcome;
  }

  /**
   * Accepts several emails whose ids the send core made (a batch's items), their plain items and address
   * references in BatchWriteItems (./accept-together.ts); one that needs a transaction goes through accept().
   */
  acceptTogether(requests: readonly AcceptRequest[]): Promise<TogetherResult[]> {
    return acceptTogether(this.table, this.bounds, requests, (request) => this.accept(request));
  }

  /** The attempts: each writes the current plans; a refusal by contention plans the refused counters again. */
  private async acceptEmail(request: AcceptRequest, ttl: number): Promise<AcceptOutcome> {
    const { email, capped, count } = request;
    const basis: AcceptBasis = acceptBasis(request, ttl, deferredUsage(email.account_id, request.uncapped, count));
    const plans = await this.firstPlans(request);
    if (!Array.isArray(plans)) return plans;
    const deps = { bounds: this.bounds, idempotencyStore: this.idempotencyStore };
    for (let attempt = 1; ; attempt++) {
      const write = acceptWrite(this.table, deps, request, basis, plans);
      if (write.items.length === 1) {
        try {
          await this.table.client.send(new PutCommand(write.put));
        } catch (error) {
          // Its id exists (a caller-chosen id, sent before).
          if (isConditionFailure(error)) return { kind: 'email_exists' };
          throw error;
        }
        return { kind: 'accepted', reserved: write.reserved };
      }
      try {
        await transactWrite(this.table, write.items);
        return { kind: 'accepted', reserved: write.reserved };
      } catch (error) {
        const refusal = refusalOf(error, write);
        if ('kind' in refusal) return refusal;
        if (attempt >= MAX_ACCEPT_ATTEMPTS) return this.settleContended(email.account_id, capped, count, error);
        const limited = await this.planAgain(email.account_id, request, refusal.refused, plans);
        if (limited) return limited;
        if (refusal.refused.length === 0) await conflictBackoff(attempt);
      }
    }
  }

  /** The first try's shard plans, made without reading; `limit_reached` for a send larger than a limit itself. */
  private async firstPlans({ email, capped, count }: AcceptRequest): Promise<ShardPart[][] | AcceptOutcome> {
    const plans: ShardPart[][] = [];
    for (const reservation of capped) {
      const plan = firstShardPlan(shardCaps(reservation.limit!), count);
      // Larger than the limit itself: refused without a write (the read only reports what is used).
      if (!plan) return limitReached(reservation, await readShardCounts(this.table, email.account_id, reservation));
      plans.push(plan);
    }
    return plans;
  }

  /** Plans each refused counter again from its shards' counts (in `plans`); `limit_reached` when one has no room left. */
  private async planAgain(
    accountId: string,
    { capped, count }: AcceptRequest,
    refused: readonly number[],
    plans: ShardPart[][],
  ): Promise<AcceptOutcome | null> {
    for (const i of refused) {
      const reservation = capped[i]!;
      const counts = await readShardCounts(this.table, accountId, reservation);
      const parts = planShardParts(shardCaps(reservation.limit!), counts, count);
      if (!parts) return limitReached(reservation, counts);
      plans[i] = parts;
    }
    return null;
  }

  /**
   * The answer of a send still refused after its last attempt: `limit_reached` for the first capped counter
   * whose shards together lack room for it now (the send could not have been accepted: 429, as for any
   * send at its cap); otherwise the refusal itself (room remains, but other sends kept taking or writing
   * it: the caller's 503, which the cap-edge tests never reach).
   */
  private async settleContended(
    accountId: string,
    capped: readonly UsageReservation[],
    count: number,
    error: unknown,
  ): Promise<AcceptOutcome> {
    const counts = await Promise.all(capped.map((reservation) => readShardCounts(this.table, accountId, reservation)));
    const full = capped.findIndex((reservation, i) => planShardParts(shardCaps(reservation.limit!), counts[i]!, count) === null);
    if (full >= 0) return limitReached(capped[full]!, counts[full]!);
    throw error;
  }
}
