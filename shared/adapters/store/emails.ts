/**
 * Emails repository. An email item is keyed by its own id (no hot partition on the send path); the
 * per-account listing goes through GSI4 (keys only; ./email-listing.ts). Status changes are conditional writes, never
 * read-then-write.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isExpired, retentionTtl } from '../../domain/accounts/retention';
import { serviceClock } from '../clock';
import { retentionLookupFor } from './account-retention';
import * as z from 'zod';
import { emailSchema, type Email, type EmailBody } from '../../domain/emails/email';
import { parseMailbox } from '../../domain/mail/address';
import { EVENT_RANK, statusesBefore, type DeliveryOutcome, type EngagementEvent } from '../../domain/emails/outcomes';
import { firstShardPlan, planShardParts, shardCaps, type ShardPart, type UsageReservation } from '../../domain/accounts/limits';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency';
import { decodeItem } from './decode';
import { emailIndexShard } from './email-index-shard';
import { keys } from './keys';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs } from './erasures';
import { idempotencyKeyOf } from './idempotency';
import { recipientsNamed } from '../../domain/privacy/named-addresses';
import { deferredUsage, readShardCounts, releaseItems, reservedCounterSchema, reserveShardItems, type ReservedCounter } from './usage';
import {
  cancelledConditionIndexes,
  hasTransactionConflict,
  isConditionFailure,
  transactWrite,
  updateIfCondition,
  withoutNullFields,
  type Table,
  type TransactItem,
} from './table';
import { acceptedDueAt, DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '../../domain/reliability/bounds';
import { dueAttributes, REMOVE_DUE, setDue } from './due-index';
import { forgetTenantScheduledItem, TenantScheduledRepository, tenantScheduledItems } from './tenant-scheduled';
import { UNDETERMINED } from '../../domain/reliability/recovery-policy';

/** Where the body lives: inline in the item, or in the blob store under `key` when large. */
export type StoredBody = { inline: EmailBody } | { blobKey: string };

/**
 * A raw MIME message (the SMTP relay) kept in the blob store under `blobKey`: the send worker delivers it
 * as written instead of composing one from the body (which is then empty). Persisted as `mime_blob_key`.
 */
export interface StoredMime {
  blobKey: string;
}

/** What the service keeps beside the public record. */
export interface EmailInternals {
  /** Bumped by every reschedule; a schedule firing with another version is stale and ignored. */
  schedule_version?: number;
  /** The usage reserved at acceptance, released when a scheduled email is cancelled. */
  usage_reserved?: { entries: ReservedCounter[]; count: number };
  /** Epoch ms until which a send attempt holds the email (absent: not claimed, or released). */
  send_lease_until?: number;
  /** A refused send: the details of its email.suppressed event (published by the outbox relay). */
  suppressed_event?: Record<string, unknown>;
}

/** What the send core hands the store to accept one email. */
export interface AcceptRequest {
  email: Email;
  body: StoredBody;
  /** The raw message to deliver as written (SMTP relay); absent for a composed email. */
  mime?: StoredMime;
  scheduleVersion?: number;
  /** Places the send takes in each counter (its recipients). */
  count: number;
  /** Capped counters, reserved in the email's transaction (sharded). */
  capped: UsageReservation[];
  /** Uncapped counters: counted by the outbox relay from the email item (`usage_deferred`), not on the request path. */
  uncapped: UsageReservation[];
  /** The idempotency record to create with the email (fails when a live one exists). */
  idempotency?: { accountId: string; key: string; record: IdempotencyRecord; now: Date };
  /** The account's emails_days, when the caller has read the account (the send core has): no lookup then. */
  retentionDays?: number;
}

/**
 * What applyOutcome did: `moved` the status forward, `advanced` last_event only, `recorded` only fields
 * that were still empty, or nothing (`unchanged`); `missing` when the email does not exist for that account.
 * Only `moved` and `advanced` are news worth a webhook.
 */
export type OutcomeWrite = { kind: 'missing' } | { kind: 'moved' | 'advanced' | 'recorded' | 'unchanged'; email: Email };

/**
 * The email's recipients as SES reported them so far (recordRecipients): addresses reached (delivered or
 * bounced by the receiving side), addresses refused (not sent to), how many recipients the email has, and
 * the first refusal's details (bounce_type, bounce_reason, bounced_at, bounce_category).
 */
export interface RecipientTally {
  reached: number;
  refused: number;
  recipients: number;
  refusal?: Record<string, string>;
}

/** What cancelling a scheduled email asks (PATCH /emails/{id}, a tenant's deletion). */
export interface CancelScheduledRequest {
  accountId: string;
  emailId: string;
  /** The email's tenant: the email leaves its tenant's list of scheduled emails. */
  tenantId: string | null;
  /** The usage its acceptance reserved (`usage_reserved`), given back. */
  reserved?: { entries: ReservedCounter[]; count: number };
  now: string;
}

export type CancelScheduledOutcome = { kind: 'cancelled' } | { kind: 'not_scheduled' };

/** Named outcomes of accept (no positional decoding leaves the store). */
export type AcceptOutcome =
  | { kind: 'accepted'; reserved: ReservedCounter[] }
  | { kind: 'limit_reached'; reservation: UsageReservation; used: number }
  | { kind: 'idempotency_taken' }
  /** A scheduled email's tenant is no longer live (its deletion has begun): nothing was written. */
  | { kind: 'tenant_gone' };

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

export interface StoredEmail {
  email: Email;
  body: StoredBody;
  /** Set for a raw MIME message (SMTP relay): delivered instead of composing `body`. */
  mime?: StoredMime;
  internals: EmailInternals;
}

/**
 * `settled`: a redelivered message for an email an earlier attempt settled (sent, or failed for good):
 * that attempt may have died between its write and publishing the event, so the worker publishes it again.
 */
export type ClaimResult =
  | { kind: 'claimed'; stored: StoredEmail }
  | { kind: 'leased' }
  | { kind: 'settled'; email: Email }
  | { kind: 'not_sendable' };

/** Statuses that end an email's life: it leaves the due index. */
const FINAL_STATUSES = new Set(['delivered', 'bounced', 'failed', 'cancelled']);

/**
 * Attributes that start empty and are filled by events with if_not_exists, so they are absent (not NULL)
 * until set; they read as null (emailSchema's defaults).
 */
const LATE_FIELDS = [
  'bounce_reason',
  'bounce_type',
  'bounce_category',
  'scheduled_at',
  'cancelled_at',
  'sent_at',
  'delivered_at',
  'bounced_at',
  'tenant',
  'tenant_id',
  'provider_message_id',
] as const;

/**
 * The email item as the store keeps it: the email, its body (inline, or the blob's key), the raw
 * message's blob (SMTP relay) and the internals. Dropped: the send bookkeeping only conditions and the
 * outbox read (`last_event_rank`, `send_attempts`, `usage_deferred`, the SES recipient tallies
 * `ses_reached` / `ses_refused` / `ses_refusal`), and `updated_at`, which reschedules, cancellations and
 * the reconciler write but the Email model does not have.
 */
const emailItemSchema = emailSchema.extend({
  body: z.object({ html: z.string().optional(), text: z.string().optional() }).optional(),
  body_blob_key: z.string().optional(),
  mime_blob_key: z.string().optional(),
  schedule_version: z.number().optional(),
  usage_reserved: z.object({ entries: z.array(reservedCounterSchema), count: z.number() }).optional(),
  send_lease_until: z.number().optional(),
  suppressed_event: z.record(z.string(), z.unknown()).optional(),
});

export function toStoredEmail(item: Record<string, unknown>): StoredEmail {
  const { body, body_blob_key, mime_blob_key, schedule_version, usage_reserved, send_lease_until, suppressed_event, ...email } = decodeItem(
    emailItemSchema,
    item,
    'Email',
  );
  return {
    email,
    body: body_blob_key ? { blobKey: body_blob_key } : { inline: body ?? {} },
    ...(mime_blob_key !== undefined ? { mime: { blobKey: mime_blob_key } } : {}),
    internals: {
      schedule_version,
      usage_reserved,
      ...(send_lease_until !== undefined ? { send_lease_until } : {}),
      ...(suppressed_event ? { suppressed_event } : {}),
    },
  };
}

export class EmailRepository {
  /** Tenants' scheduled emails (tenant-scheduled.ts): a firing takes its email off its tenant's list. */
  private readonly tenantScheduled: TenantScheduledRepository;

  constructor(
    private readonly table: Table,
    private readonly idempotencyStore?: Pick<IdempotencyStore, 'putItem'>,
    private readonly bounds: RecoveryBounds = DEFAULT_RECOVERY_BOUNDS,
  ) {
    this.tenantScheduled = new TenantScheduledRepository(table);
  }

  private emailPut(email: Email, body: StoredBody, extra: Record<string, unknown>) {
    const due = acceptedDueAt(this.bounds, email);
    return {
      TableName: this.table.name,
      Item: {
        ...keys.email(email.id),
        // The listings' entries, under one of the account's (and tenant's) shards (./email-listing.ts), on
        // keys-only indexes (GSI4, GSI5): the status writes that follow never rewrite them.
        GSI4PK: keys.emailsByAccount(email.account_id, emailIndexShard(email.id)),
        GSI4SK: email.id,
        ...(email.tenant_id ? { GSI5PK: keys.emailsByTenant(email.tenant_id, emailIndexShard(email.id)), GSI5SK: email.id } : {}),
        // Queued and scheduled emails enter the due index: the reconciler re-drives them if they stall.
        ...(due === null ? {} : dueAttributes('EMAIL', email.id, due)),
        type: 'email',
        ...withoutNullFields(email, LATE_FIELDS),
        ...extra,
        last_event_rank: EVENT_RANK.queued,
        // Its references (every address it names) are written beside it (./erasures.ts).
        [ADDRESS_REFS_MARK]: ADDRESS_REFS_VERSION,
        ...('inline' in body ? { body: body.inline } : { body_blob_key: body.blobKey }),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    };
  }

  /** Writes an email on its own (a refused send kept for the log; `internals`: what its outbox event needs). */
  async create(email: Email, body: StoredBody, internals: Pick<EmailInternals, 'suppressed_event'> = {}): Promise<void> {
    const ttl = await this.ttlOf(email);
    await Promise.all([
      this.table.client.send(new PutCommand(this.emailPut(email, body, { ...internals, ttl }))),
      this.writeAddressRefs(email, undefined, ttl),
    ]);
  }

  /**
   * The address references of its recipients and Reply-To (./erasures.ts; docs/erasure.md): to the email, and to its
   * idempotency record. Written beside the email, in parallel: one more write per recipient, no more round trips.
   */
  private async writeAddressRefs(email: Email, idempotency: AcceptRequest['idempotency'], ttl: number): Promise<void> {
    const recipients = recipientsNamed(email);
    await Promise.all([
      writeAddressRefs(this.table, email.account_id, recipients, 'email', keys.email(email.id), ttl),
      ...(idempotency
        ? [
            writeAddressRefs(
              this.table,
              email.account_id,
              recipients,
              'idempotency_record',
              idempotencyKeyOf(idempotency.accountId, idempotency.key),
            ),
          ]
        : []),
    ]);
  }

  /**
   * The email's `ttl` (docs/retention.md): its account's emails_days from its creation, or from its
   * scheduled time when later (a scheduled email is kept its whole window after it is sent).
   */
  private async ttlOf(email: Pick<Email, 'account_id' | 'created_at' | 'scheduled_at'>, knownDays?: number): Promise<number> {
    const days = knownDays ?? (await retentionLookupFor(this.table).daysFor(email.account_id, 'emails_days'));
    const from = email.scheduled_at && email.scheduled_at > email.created_at ? email.scheduled_at : email.created_at;
    return retentionTtl(days, from);
  }

  /**
   * Accepts an email: the item (which the table's stream hands to the send queue: the outbox), its capped
   * usage reservations and its idempotency record, in one transaction; a single PutItem when there is
   * nothing else to write. Capped counters are sharded: the first try takes a random shard without reading;
   * a refused shard makes this read that counter's shards (one BatchGet) and place the places where there
   * is room, or answer `limit_reached` when the shards together have none. Each retry follows a write by
   * another send, so the loop ends; exactly the remaining places are granted under any concurrency.
   */
  async accept(request: AcceptRequest): Promise<AcceptOutcome> {
    const ttl = await this.ttlOf(request.email, request.retentionDays);
    const [outcome] = await Promise.all([this.acceptEmail(request, ttl), this.writeAddressRefs(request.email, request.idempotency, ttl)]);
    return outcome;
  }

  private async acceptEmail(request: AcceptRequest, ttl: number): Promise<AcceptOutcome> {
    const { email, capped, count } = request;
    const deferred = deferredUsage(email.account_id, request.uncapped, count);
    const deferredCounters: ReservedCounter[] = request.uncapped.map((r) => ({
      scope: r.scope,
      period: r.period,
      periodValue: r.periodValue,
    }));
    const plans: ShardPart[][] = [];
    for (const reservation of capped) {
      const plan = firstShardPlan(shardCaps(reservation.limit!), count);
      // Larger than the limit itself: refused without a write (the read only reports what is used).
      if (!plan) return limitReached(reservation, await readShardCounts(this.table, email.account_id, reservation));
      plans.push(plan);
    }
    for (let attempt = 1; ; attempt++) {
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
        ...(email.status === 'scheduled' && (reserved.length || deferred)
          ? { usage_reserved: { entries: [...reserved, ...deferredCounters], count } }
          : {}),
      };
      const put = this.emailPut(email, request.body, {
        ...internals,
        ttl,
        ...(deferred ? { usage_deferred: deferred } : {}),
        ...(request.mime ? { mime_blob_key: request.mime.blobKey } : {}),
      });
      const reservationItems = capped.map((reservation, i) => reserveShardItems(this.table, email.account_id, reservation, plans[i]!));
      const idempotency = request.idempotency;
      const idempotencyItem = idempotency
        ? this.idempotencyStore!.putItem(idempotency.accountId, idempotency.key, idempotency.record, idempotency.now)
        : undefined;
      // A tenant's scheduled email is listed for the tenant's deletion, only while the tenant is live (tenant-scheduled.ts).
      const tenantItems = tenantScheduledItems(this.table, email);
      const tenantCheckAt = 1 + reservationItems.flat().length;
      const items: TransactItem[] = [
        { Put: put },
        ...reservationItems.flat(),
        ...tenantItems,
        ...(idempotencyItem ? [idempotencyItem] : []),
      ];
      if (items.length === 1) {
        await this.table.client.send(new PutCommand(put));
        return { kind: 'accepted', reserved };
      }
      try {
        await transactWrite(this.table, items);
        return { kind: 'accepted', reserved };
      } catch (error) {
        const failed = new Set(cancelledConditionIndexes(error));
        const conflicted = hasTransactionConflict(error);
        if (failed.size === 0 && !conflicted) throw error;
        if (idempotencyItem && failed.has(items.length - 1)) return { kind: 'idempotency_taken' };
        if (tenantItems.length > 0 && failed.has(tenantCheckAt)) return { kind: 'tenant_gone' };
        // Which reservations were refused: map item positions back to reservations, here and only here.
        let position = 1;
        const refused: number[] = [];
        reservationItems.forEach((group, i) => {
          if (group.some((_, j) => failed.has(position + j))) refused.push(i);
          position += group.length;
        });
        // The email's own condition failed (its id exists), or nothing was refused: not contention, not ours to retry.
        if (failed.has(0) || (refused.length === 0 && !conflicted)) throw error;
        if (attempt >= MAX_ACCEPT_ATTEMPTS) return this.settleContended(email.account_id, capped, count, error);
        for (const i of refused) {
          const reservation = capped[i]!;
          const counts = await readShardCounts(this.table, email.account_id, reservation);
          const parts = planShardParts(shardCaps(reservation.limit!), counts, count);
          if (!parts) return limitReached(reservation, counts);
          plans[i] = parts;
        }
        if (refused.length === 0) await conflictBackoff(attempt);
      }
    }
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

  async get(emailId: string): Promise<StoredEmail | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.email(emailId), ConsistentRead: true }),
    );
    // Past its retention: absent, as it soon will be (DynamoDB's TTL deletes within days).
    return result.Item && !isExpired(result.Item, serviceClock.now()) ? toStoredEmail(result.Item) : null;
  }

  /**
   * Claims an email for sending with a lease, so a redelivered SQS message cannot send it twice while
   * the first attempt is alive (`leased`: retry later); an expired lease (crashed worker) can be claimed
   * again. A scheduled email is claimed only by the firing of its current schedule version, which
   * moves it to queued; a cancelled or rescheduled email is `not_sendable` for the stale firing.
   */
  async claimForSend(emailId: string, now: number, leaseMs: number, scheduleVersion?: number): Promise<ClaimResult> {
    const scheduled = scheduleVersion === undefined ? '' : ' OR (#status = :scheduled AND schedule_version = :version)';
    // A lease that ended without an outcome (the attempt died) is taken again only after the grace for
    // the provider's events: the attempt may have reached SES, whose Delivery would then settle it.
    const reclaimBefore = now - this.bounds.sendGraceMs;
    // The due entry is left where acceptance put it (a key change is a delete and a put on the due index):
    // an email delivered within queuedRedriveAfterMs leaves the index without another write, and the
    // reconciler, finding one still leased or sent, waits (recovery-policy.ts) as it would at its lease's end.
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.email(emailId),
          // What only acceptance needed goes: the usage the outbox relay read from the INSERT's image, and a
          // scheduled email's reservation (it can no longer be cancelled). The sent and outcome writes that
          // follow are sized on what is left.
          UpdateExpression: 'SET send_lease_until = :until, #status = :queued ADD send_attempts :one REMOVE usage_deferred, usage_reserved',
          ConditionExpression: `(#status = :queued AND (attribute_not_exists(send_lease_until) OR send_lease_until < :reclaim))${scheduled}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':queued': 'queued',
            ':until': now + leaseMs,
            ':reclaim': reclaimBefore,
            ':one': 1,
            ...(scheduleVersion === undefined ? {} : { ':scheduled': 'scheduled', ':version': scheduleVersion }),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!result.Attributes) return { kind: 'not_sendable' };
      const stored = toStoredEmail(result.Attributes);
      // A firing ends the schedule: the email leaves its tenant's list (best effort, tenant-scheduled.ts).
      if (scheduleVersion !== undefined && stored.email.tenant_id)
        await this.tenantScheduled.forget(stored.email.tenant_id, emailId).catch(() => undefined);
      return { kind: 'claimed', stored };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Only to choose between "retry later" and "drop": the claim itself was the conditional write.
      const current = await this.table.client.send(
        new GetCommand({ TableName: this.table.name, Key: keys.email(emailId), ConsistentRead: true }),
      );
      const item = current.Item;
      if (item?.status === 'queued' && typeof item.send_lease_until === 'number' && item.send_lease_until >= reclaimBefore)
        return { kind: 'leased' };
      const settledByAttempt =
        typeof item?.provider_message_id === 'string' ||
        (item?.status === 'failed' && item.last_event === 'failed' && (item.send_attempts ?? 0) > 0);
      // Also for a schedule's firing (redelivered after the attempt it started): its event is owed the same way.
      if (item && settledByAttempt && item.status !== 'queued' && item.status !== 'scheduled')
        return { kind: 'settled', email: toStoredEmail(item).email };
      return { kind: 'not_sendable' };
    }
  }

  /**
   * Moves a scheduled email to a new time and a new schedule version; null when it is not (or no
   * longer) scheduled in that account.
   */
  async reschedule(
    accountId: string,
    emailId: string,
    at: string,
    now: string,
  ): Promise<{ version: number; previous: { at: string; version: number } } | null> {
    const due = setDue('EMAIL', emailId, acceptedDueAt(this.bounds, { status: 'scheduled', created_at: now, scheduled_at: at })!);
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.email(emailId),
          UpdateExpression: `SET scheduled_at = :at, updated_at = :now, ${due.set} ADD schedule_version :one`,
          ConditionExpression: '#status = :scheduled AND account_id = :account',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':at': at, ':now': now, ':one': 1, ':scheduled': 'scheduled', ':account': accountId, ...due.values },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const old = result.Attributes ?? {};
      const previousVersion = typeof old.schedule_version === 'number' ? old.schedule_version : 0;
      return { version: previousVersion + 1, previous: { at: old.scheduled_at, version: previousVersion } };
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /** Puts back the time and version of a reschedule whose schedule could not be moved. */
  async revertReschedule(emailId: string, version: number, previous: { at: string; version: number }): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.email(emailId),
          UpdateExpression: 'SET scheduled_at = :at, schedule_version = :previous',
          ConditionExpression: '#status = :scheduled AND schedule_version = :version',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':at': previous.at, ':previous': previous.version, ':version': version, ':scheduled': 'scheduled' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * Cancels a scheduled email of the account and gives back the usage its acceptance reserved, in one
   * transaction; `not_scheduled` when it is not (or no longer) scheduled. A tenant's email leaves its
   * tenant's list in that transaction too.
   */
  async cancelScheduled(request: CancelScheduledRequest): Promise<CancelScheduledOutcome> {
    const { accountId, emailId, tenantId, reserved, now } = request;
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.email(emailId),
            UpdateExpression: `SET #status = :cancelled, cancelled_at = :now, updated_at = :now, last_event = :cancelled REMOVE ${REMOVE_DUE}`,
            ConditionExpression: '#status = :scheduled AND account_id = :account',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':cancelled': 'cancelled', ':now': now, ':scheduled': 'scheduled', ':account': accountId },
          },
        },
        ...(reserved ? releaseItems(this.table, accountId, reserved.entries, reserved.count) : []),
        ...(tenantId ? [forgetTenantScheduledItem(this.table, tenantId, emailId)] : []),
      ]);
      return { kind: 'cancelled' };
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(0)) return { kind: 'not_scheduled' };
      throw error;
    }
  }

  /** Reconciler: moves the due time of an email still in `status` (after acting on it); false when it moved on. */
  async postponeDue(emailId: string, status: string, dueAt: number): Promise<boolean> {
    const due = setDue('EMAIL', emailId, dueAt);
    return (
      (await updateIfCondition(this.table, {
        Key: keys.email(emailId),
        ReturnValues: 'NONE',
        UpdateExpression: `SET ${due.set}`,
        ConditionExpression: '#status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ...due.values },
      })) !== null
    );
  }

  /**
   * Reconciler: a sent email the provider has said nothing about past the first bound becomes
   * `delivery_delayed` (last_event; the status stays `sent`) and is looked at again at `dueAt`. Only
   * while it is still sent with no later event; returns the email, or null when it moved on.
   */
  async markUnconfirmed(emailId: string, at: string, dueAt: number): Promise<Email | null> {
    const due = setDue('EMAIL', emailId, dueAt);
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET last_event = :delayed, last_event_rank = :rank, updated_at = :at, ${due.set}`,
      ConditionExpression: '#status = :sent AND last_event_rank < :rank',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':delayed': 'delivery_delayed',
        ':rank': EVENT_RANK.delivery_delayed,
        ':at': at,
        ':sent': 'sent',
        ...due.values,
      },
    });
    return item ? toStoredEmail(item).email : null;
  }

  /**
   * Reconciler: a sent email with no outcome past the last bound fails as `undetermined` (final), only
   * while it is still sent; returns the email, or null when it moved on. It stays in the due index (due
   * at once) until `clearDue` after its email.failed is published, so a pass that dies in between is
   * followed by one that publishes it.
   */
  async expireUnconfirmed(emailId: string, at: string, reason: string): Promise<Email | null> {
    const due = setDue('EMAIL', emailId, Date.parse(at));
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET #status = :failed, last_event = :failed, last_event_rank = :rank, bounce_type = :type, bounce_reason = :reason, bounced_at = :at, updated_at = :at, ${due.set}`,
      ConditionExpression: '#status = :sent',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':rank': EVENT_RANK.failed,
        ':type': UNDETERMINED,
        ':reason': reason,
        ':at': at,
        ':sent': 'sent',
        ...due.values,
      },
    });
    return item ? toStoredEmail(item).email : null;
  }

  /** Reconciler: takes an email in a final status out of the due index (a write that left it there). */
  async clearDue(emailId: string): Promise<boolean> {
    const finals = [...FINAL_STATUSES];
    return (
      (await updateIfCondition(this.table, {
        Key: keys.email(emailId),
        ReturnValues: 'NONE',
        UpdateExpression: `REMOVE ${REMOVE_DUE}`,
        ConditionExpression: `#status IN (${finals.map((_, i) => `:f${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: Object.fromEntries(finals.map((status, i) => [`:f${i}`, status])),
      })) !== null
    );
  }

  /**
   * Tracking (docs/tracking.md): a human open or click. ONE UpdateItem sets `opened_at` / `clicked_at`
   * where still absent and, when `advance` (the email as the caller read it was behind this event), moves
   * last_event to it, conditional on its rank still being below; only if that condition fails (a bounce or
   * complaint raced in) does a second write set the timestamp alone. Status never moves. Answers the email
   * after the write and whether this write set the timestamp; null when the email is gone (or another account's).
   */
  async recordEngagement(
    emailId: string,
    accountId: string,
    event: EngagementEvent,
    at: string,
    advance: boolean,
  ): Promise<{ email: Email; first: boolean } | null> {
    const field = event === 'opened' ? 'opened_at' : 'clicked_at';
    const write = (withLastEvent: boolean) =>
      updateIfCondition(this.table, {
        Key: keys.email(emailId),
        ReturnValues: 'ALL_OLD',
        UpdateExpression: `SET #field = if_not_exists(#field, :at)${withLastEvent ? ', last_event = :event, last_event_rank = :rank' : ''}`,
        ConditionExpression: `attribute_exists(PK) AND account_id = :account${withLastEvent ? ' AND (attribute_not_exists(last_event_rank) OR last_event_rank < :rank)' : ''}`,
        ExpressionAttributeNames: { '#field': field },
        ExpressionAttributeValues: {
          ':at': at,
          ':account': accountId,
          ...(withLastEvent ? { ':event': event, ':rank': EVENT_RANK[event] } : {}),
        },
      });
    let advanced = advance;
    let old = advance ? await write(true) : null;
    if (old === null) {
      advanced = false;
      old = await write(false);
    }
    if (old === null) return null;
    const first = old[field] === undefined;
    const email = toStoredEmail({ ...old, [field]: old[field] ?? at, ...(advanced ? { last_event: event } : {}) }).email;
    return { email, first };
  }

  /** Gives a claimed email back (transient failure): the next delivery of the message retries at once. */
  async releaseLease(emailId: string): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.email(emailId),
        UpdateExpression: 'REMOVE send_lease_until',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  }

  /**
   * Holds a queued, unclaimed email until `retryAt` (service clock, ms): its send waits for SES's rate or
   * for SES's account to send again (usecases/send/deliver-paced.ts), and its own message comes back
   * then. Until then another message for it finds it leased and is dropped, and the reconciler waits for
   * it; it is due again a redrive bound after `retryAt`, should that message be lost. The lease ends the
   * send grace (and a second) before `retryAt`, since a claim takes an ended lease only after that grace.
   * A message that claimed the email in between goes on: nothing is written then.
   */
  async holdForRetry(emailId: string, retryAt: number): Promise<void> {
    const due = setDue('EMAIL', emailId, retryAt + this.bounds.queuedRedriveAfterMs);
    await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET send_lease_until = :until, ${due.set}`,
      ConditionExpression: '#status = :queued AND attribute_not_exists(send_lease_until)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':until': retryAt - this.bounds.sendGraceMs - 1000, ':queued': 'queued', ...due.values },
      ReturnValues: 'NONE',
    });
  }

  /**
   * Records the hand-off to the provider as `sent`, in one conditional write while the email is still
   * queued (the normal case). Only when a provider event overtook it (Delivery before this write) does a
   * second write record the provider id and sent_at without moving the status back. Returns the email.
   */
  async recordSent(emailId: string, providerMessageId: string, at: string, messageId?: string): Promise<Email | null> {
    // Sent stays in the due index until the provider reports an outcome, under the due time acceptance set:
    // the reconciler finding it sent then waits until sentDueAt (delivery_delayed, then final). Not moved here,
    // so the normal life of an email writes the due index twice (in at acceptance, out at its outcome).
    // The Message-ID recipients see (SES's), when the provider told it.
    const mid = messageId ? { set: ', message_id = :mid', values: { ':mid': messageId } } : { set: '', values: {} };
    const moved = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET provider_message_id = :pid${mid.set}, #status = :sent, last_event = :sent, last_event_rank = :rank, sent_at = if_not_exists(sent_at, :at) REMOVE send_lease_until`,
      ConditionExpression: '#status = :queued',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pid': providerMessageId,
        ':sent': 'sent',
        ':rank': EVENT_RANK.sent,
        ':at': at,
        ':queued': 'queued',
        ...mid.values,
      },
    });
    if (moved) return toStoredEmail(moved).email;
    const kept = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET provider_message_id = :pid${mid.set}, sent_at = if_not_exists(sent_at, :at) REMOVE send_lease_until`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':pid': providerMessageId, ':at': at, ...mid.values },
    });
    return kept ? toStoredEmail(kept).email : null;
  }

  /**
   * Content redaction (docs/redaction.md): a sent email's body (inline or its blob key), raw message key
   * and subject leave the record, its attachments keep their name, type and size only. One conditional
   * write; null when the email is gone. The send worker deleted the objects before (drop-content.ts).
   */
  async dropContent(emailId: string, at: string, attachments: Email['attachments'] | undefined, subject: string): Promise<Email | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET #subject = :subject, content_dropped_at = :at${attachments ? ', attachments = :attachments' : ''} REMOVE body, body_blob_key, mime_blob_key`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#subject': 'subject' },
      ExpressionAttributeValues: { ':subject': subject, ':at': at, ...(attachments ? { ':attachments': attachments } : {}) },
    });
    return item ? toStoredEmail(item).email : null;
  }

  /**
   * Per recipient (apply-ses-event.ts): adds `addresses` (lower-cased) to the email's set of reached or
   * refused recipients, and for a refusal keeps the first refusal's details, in ONE UpdateItem (ADD to a
   * string set, idempotent under redelivery). The answer is the tally after this write, so of two events
   * racing, the one written second sees both. An empty address list is recorded as `*` (a message-level
   * result). Null when the email does not exist for that account.
   */
  async recordRecipients(
    emailId: string,
    accountId: string,
    result: 'reached' | 'refused',
    addresses: string[],
    refusal?: Record<string, string>,
  ): Promise<RecipientTally | null> {
    const set = new Set(addresses.length ? addresses.map((address) => address.toLowerCase()) : ['*']);
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      ReturnValues: 'ALL_NEW',
      UpdateExpression: `ADD #set :addresses${refusal ? ' SET ses_refusal = if_not_exists(ses_refusal, :refusal)' : ''}`,
      ConditionExpression: 'attribute_exists(PK) AND account_id = :account',
      ExpressionAttributeNames: { '#set': result === 'reached' ? 'ses_reached' : 'ses_refused' },
      ExpressionAttributeValues: { ':addresses': set, ':account': accountId, ...(refusal ? { ':refusal': refusal } : {}) },
    });
    if (!item) return null;
    const bare = (list: unknown) =>
      (Array.isArray(list) ? list : []).map((entry: string) => (parseMailbox(entry)?.email ?? entry).toLowerCase());
    const sizeOf = (value: unknown) => (value instanceof Set ? value.size : 0);
    const refused = item.ses_refused instanceof Set ? item.ses_refused : new Set<string>();
    return {
      reached: sizeOf(item.ses_reached),
      // A message-level refusal (`*`) refuses every recipient.
      refused: refused.has('*') ? Number.MAX_SAFE_INTEGER : refused.size,
      recipients: new Set([...bare(item.to), ...bare(item.cc), ...bare(item.bcc)]).size,
      ...(item.ses_refusal ? { refusal: item.ses_refusal as Record<string, string> } : {}),
    };
  }

  /**
   * Applies a delivery outcome. Conditional writes, each only when the previous did not apply: (1) move
   * the status forward (and last_event), (2) the status alone, (3) advance last_event only (a repeated
   * delivery_delayed too, while no later event was seen), (4) record the outcome's fields that are still
   * empty. Says which applied (OutcomeWrite), with the email after the write.
   */
  async applyOutcome(emailId: string, accountId: string | null, outcome: DeliveryOutcome): Promise<OutcomeWrite> {
    const fieldNames: Record<string, string> = {};
    const fieldValues: Record<string, unknown> = {};
    const fieldSets: string[] = [];
    const fieldMissing: string[] = [];
    for (const [name, value] of Object.entries(outcome.fields)) {
      fieldNames[`#f_${name}`] = name;
      fieldValues[`:f_${name}`] = value;
      fieldSets.push(`#f_${name} = if_not_exists(#f_${name}, :f_${name})`);
      fieldMissing.push(`attribute_not_exists(#f_${name})`);
    }
    const owner = accountId === null ? '' : ' AND account_id = :account';
    const ownerValue = accountId === null ? {} : { ':account': accountId };
    const rank = EVENT_RANK[outcome.event];
    const lastEventSets = ['last_event = :event', 'last_event_rank = :rank'];
    const lastEventValues = { ':event': outcome.event, ':rank': rank };

    // The email as it is after the write (what events are built from), or null when the condition failed.
    const attempt = async (update: string, condition: string, names: Record<string, string>, values: Record<string, unknown>) => {
      const item = await updateIfCondition(this.table, {
        Key: keys.email(emailId),
        UpdateExpression: update,
        ConditionExpression: `attribute_exists(PK)${owner}${condition}`,
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ...(Object.keys({ ...ownerValue, ...values }).length ? { ExpressionAttributeValues: { ...ownerValue, ...values } } : {}),
      });
      return item ? toStoredEmail(item).email : null;
    };

    if (outcome.status) {
      const before = statusesBefore(outcome.status);
      const placeholders = before.map((_, index) => `:before${index}`);
      // A final status takes the email out of the due index; `sent` (reached from queued by an event that
      // overtook the worker's write) waits there for its outcome.
      const leaveDue = FINAL_STATUSES.has(outcome.status) ? `, ${REMOVE_DUE}` : '';
      const applied = await attempt(
        `SET #status = :status, ${[...lastEventSets, ...fieldSets].join(', ')} REMOVE send_lease_until${leaveDue}`,
        ` AND #status IN (${placeholders.join(', ')}) AND (attribute_not_exists(last_event_rank) OR last_event_rank <= :rank)`,
        { '#status': 'status', ...fieldNames },
        { ':status': outcome.status, ...lastEventValues, ...fieldValues, ...Object.fromEntries(before.map((s, i) => [`:before${i}`, s])) },
      );
      if (applied) return { kind: 'moved', email: applied };
      // Status may still move forward even when a more advanced event was seen first (e.g. bounce after complaint).
      const statusOnly = await attempt(
        `SET #status = :status${fieldSets.length ? `, ${fieldSets.join(', ')}` : ''}${leaveDue ? ` REMOVE ${REMOVE_DUE}` : ''}`,
        ` AND #status IN (${placeholders.join(', ')})`,
        { '#status': 'status', ...fieldNames },
        { ':status': outcome.status, ...fieldValues, ...Object.fromEntries(before.map((s, i) => [`:before${i}`, s])) },
      );
      if (statusOnly) return { kind: 'moved', email: statusOnly };
    }
    // A delay may repeat (SES reports each one) while nothing later was seen; other events advance once.
    const notPast = outcome.event === 'delivery_delayed' ? 'last_event_rank <= :rank' : 'last_event_rank < :rank';
    const advanced = await attempt(
      `SET ${[...lastEventSets, ...fieldSets].join(', ')}`,
      ` AND (attribute_not_exists(last_event_rank) OR ${notPast})`,
      fieldNames,
      {
        ...lastEventValues,
        ...fieldValues,
      },
    );
    if (advanced) return { kind: 'advanced', email: advanced };
    if (fieldSets.length) {
      const recorded = await attempt(`SET ${fieldSets.join(', ')}`, ` AND (${fieldMissing.join(' OR ')})`, fieldNames, fieldValues);
      if (recorded) return { kind: 'recorded', email: recorded };
    }
    // Nothing to change; report whether the email exists for that account.
    const unchanged = await attempt('SET last_event_rank = last_event_rank', '', {}, {});
    return unchanged ? { kind: 'unchanged', email: unchanged } : { kind: 'missing' };
  }
}
