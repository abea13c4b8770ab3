/**
 * The webhook delivery log: one item per (endpoint, event), PK DELIVERY#<wh>#<event ulid> (a busy
 * endpoint's writes spread over many partitions), listed per endpoint through GSI1
 * (WEBHOOK#<wh>#DELIVERIES / <event ulid>, newest first). Every attempt is appended to the item.
 * Items expire DELIVERY_RETENTION_DAYS after their last change (TTL attribute `ttl`).
 *
 * Status moves are conditional updates, so a redelivered queue message, a replay and a cancellation
 * cannot overwrite each other: attempts are only recorded while `pending`; a replay only starts from
 * `failed` or `cancelled` (never from `succeeded`: the receiver acknowledged it already).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DELIVERY_RETENTION_DAYS,
  eventUlidOf,
  webhookDeliverySchema,
  type DeliveryAttempt,
  type DeliveryStatus,
  type WebhookDelivery,
} from '../../domain/webhooks/delivery';
import { decodeItem } from './decode';
import { keys } from './keys';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs } from './erasures';
import { addressesOfEventPayload } from '../../domain/privacy/named-addresses';
import { queryGsi1NewestFirst, queryPage, type PageRequest } from './paginate';
import { isExpired } from '../../domain/accounts/retention';
import { serviceClock } from '../clock';
import { retentionLookupFor } from './account-retention';
import type { Page } from './cursor';
import { isConditionFailure, unexpiredFilter, type Table } from './table';
import { batchGetItems } from './batch-get';
import { toStoredWebhook, type StoredWebhook } from './webhooks';
import { DEFAULT_RECOVERY_BOUNDS, pendingDeliveryDueAt, type RecoveryBounds } from '../../domain/reliability/bounds';
import { dueAttributes, REMOVE_DUE, setDue } from './due-index';

/** A pull endpoint's delivery in its feed (GSI3), entered at `at` (ISO 8601): keys.webhookFeed. */
export function feedAttributes(webhookId: string, eventUlid: string, at: string): { GSI3PK: string; GSI3SK: string } {
  return { GSI3PK: keys.webhookFeed(webhookId), GSI3SK: `${at}#${eventUlid}` };
}

/** The REMOVE clause part that takes a delivery out of its endpoint's feed (reported, or final). */
const REMOVE_FEED = 'GSI3PK, GSI3SK';

/** The id of a delivery in the due index: its endpoint and event (its key). */
export const deliveryDueId = (webhookId: string, eventUlid: string) => `${webhookId}#${eventUlid}`;

const RETENTION_SECONDS = DELIVERY_RETENTION_DAYS * 24 * 60 * 60;

/** Epoch seconds at which an item last changed at `at` (ISO) expires, kept `retentionSeconds` (DELIVERY_RETENTION_DAYS by default). */
export function deliveryTtl(at: string, retentionSeconds = RETENTION_SECONDS): number {
  return Math.floor(Date.parse(at) / 1000) + retentionSeconds;
}

/**
 * The account's retention (webhook_deliveries_days: docs/retention.md) is kept on the item at its creation
 * (`retention_seconds`), so each later change sets its ttl from the change's time without reading the
 * account: `ttl = retention_seconds + <the change's epoch seconds>` (items older than this: 30 days).
 */
const TTL_FROM_CHANGE = '#ttl = if_not_exists(#retention, :default_retention) + :changed_at';
const ttlFromChange = (at: string) => ({ ':default_retention': RETENTION_SECONDS, ':changed_at': Math.floor(Date.parse(at) / 1000) });

/** A delivery without `attempts` or `next_attempt_at` (none made yet) reads with none and null (the schema's defaults). */
function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  return decodeItem(webhookDeliverySchema, item, 'WebhookDelivery');
}

export class WebhookDeliveryRepository {
  constructor(
    private readonly table: Table,
    private readonly bounds: RecoveryBounds = DEFAULT_RECOVERY_BOUNDS,
  ) {}

  /** The due-index SET clause of a delivery pending with its next attempt at `nextAttemptAt`. */
  private pendingDue(webhookId: string, deliveryId: string, nextAttemptAt: string | null) {
    return setDue(
      'DELIVERY',
      deliveryDueId(webhookId, eventUlidOf(deliveryId) ?? deliveryId),
      pendingDeliveryDueAt(this.bounds, nextAttemptAt, Date.now()),
    );
  }

  private key(webhookId: string, deliveryId: string) {
    const ulid = eventUlidOf(deliveryId);
    return ulid === null ? null : keys.webhookDelivery(webhookId, ulid);
  }

  /**
   * Puts a new delivery; false when this (endpoint, event) delivery exists already (an event is delivered once).
   * A push endpoint's goes into the due index (the reconciler re-drives it if its queue message is lost); a pull
   * endpoint's (`feed`) into the endpoint's feed instead, until its listener reports (feedAttributes).
   */
  async create(delivery: WebhookDelivery, options: { feed?: boolean } = {}): Promise<boolean> {
    const ulid = eventUlidOf(delivery.id);
    if (ulid === null) throw new Error(`Not a delivery id: ${delivery.id}`);
    const retentionSeconds = (await retentionLookupFor(this.table).daysFor(delivery.account_id, 'webhook_deliveries_days')) * 24 * 60 * 60;
    // The address references of the people its event names (./erasures.ts; docs/erasure.md). The item's ttl
    // moves with each attempt, so the references keep the retention from now plus a day of retries.
    const refTtl = deliveryTtl(delivery.updated_at, retentionSeconds + 24 * 60 * 60);
    await writeAddressRefs(
      this.table,
      delivery.account_id,
      addressesOfEventPayload(delivery.event_type, delivery.payload),
      'webhook_delivery',
      keys.webhookDelivery(delivery.webhook_id, ulid),
      refTtl,
    );
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...keys.webhookDelivery(delivery.webhook_id, ulid),
            GSI1PK: keys.deliveriesByWebhook(delivery.webhook_id),
            GSI1SK: ulid,
            type: 'webhook_delivery',
            ...delivery,
            // Pending: in the due index until it succeeds, fails or is cancelled (the reconciler re-drives it);
            // a pull endpoint's in its feed until the listener reports.
            ...(options.feed
              ? feedAttributes(delivery.webhook_id, ulid, delivery.created_at)
              : dueAttributes(
                  'DELIVERY',
                  deliveryDueId(delivery.webhook_id, ulid),
                  pendingDeliveryDueAt(this.bounds, delivery.next_attempt_at, Date.now()),
                )),
            retention_seconds: retentionSeconds,
            [ADDRESS_REFS_MARK]: ADDRESS_REFS_VERSION,
            ttl: deliveryTtl(delivery.updated_at, retentionSeconds),
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** The delivery (strongly consistent), or null (also for a malformed delivery id). */
  async get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const key = this.key(webhookId, deliveryId);
    if (!key) return null;
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
    // Past its retention: absent (DynamoDB's TTL deletes lazily).
    return result.Item && !isExpired(result.Item, serviceClock.now()) ? toDelivery(result.Item) : null;
  }

  /**
   * The delivery and its endpoint in ONE strongly consistent BatchGetItem: the delivery worker's read before
   * each POST, one round trip instead of two. Each is null when absent (the delivery also past its retention,
   * or its id malformed: then nothing is read).
   */
  async getWithEndpoint(
    webhookId: string,
    deliveryId: string,
  ): Promise<{ delivery: WebhookDelivery | null; stored: StoredWebhook | null }> {
    const key = this.key(webhookId, deliveryId);
    if (!key) return { delivery: null, stored: null };
    const endpointKey = keys.webhook(webhookId);
    const items = await batchGetItems(this.table, [key, endpointKey], { consistentRead: true });
    const itemOf = (wanted: { PK: string; SK: string }) => items.find((item) => item.PK === wanted.PK && item.SK === wanted.SK);
    const deliveryItem = itemOf(key);
    const endpointItem = itemOf(endpointKey);
    return {
      delivery: deliveryItem && !isExpired(deliveryItem, serviceClock.now()) ? toDelivery(deliveryItem) : null,
      stored: endpointItem ? toStoredWebhook(endpointItem) : null,
    };
  }

  /**
   * Appends an attempt and moves the delivery to `next.status` (pending with the next retry's time,
   * or succeeded/failed with null), only while it is pending: false otherwise (cancelled, finished,
   * or unknown). `updated_at` is the attempt's time. `fromFeed`: a listener's report of a pull endpoint's
   * delivery, which must still be in the feed, and leaves it.
   */
  async recordAttempt(
    webhookId: string,
    deliveryId: string,
    attempt: DeliveryAttempt,
    next: { status: DeliveryStatus; nextAttemptAt: string | null },
    options: { fromFeed?: boolean } = {},
  ): Promise<boolean> {
    const due = next.status === 'pending' ? this.pendingDue(webhookId, deliveryId, next.nextAttemptAt) : null;
    return this.conditionalUpdate(webhookId, deliveryId, {
      UpdateExpression: `SET attempts = list_append(if_not_exists(attempts, :empty), :attempt), #status = :status, next_attempt_at = :next, updated_at = :at, ${TTL_FROM_CHANGE}${due ? `, ${due.set}` : ` REMOVE ${REMOVE_DUE}, ${REMOVE_FEED}`}`,
      // Exactly once per attempt number: a redelivered queue message cannot log the same attempt twice.
      ConditionExpression: `#status = :pending AND size(attempts) = :previous${options.fromFeed ? ' AND attribute_exists(GSI3PK)' : ''}`,
      ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl', '#retention': 'retention_seconds' },
      ExpressionAttributeValues: {
        ':empty': [],
        ':previous': attempt.attempt - 1,
        ':attempt': [attempt],
        ':status': next.status,
        ':next': next.nextAttemptAt,
        ':at': attempt.at,
        ...ttlFromChange(attempt.at),
        ':pending': 'pending',
        ...due?.values,
      },
    });
  }

  /** pending -> cancelled (the endpoint was deleted or disabled); false when it was not pending. */
  async cancel(webhookId: string, deliveryId: string, now: string): Promise<boolean> {
    return this.conditionalUpdate(webhookId, deliveryId, {
      UpdateExpression: `SET #status = :cancelled, next_attempt_at = :null, updated_at = :now, ${TTL_FROM_CHANGE} REMOVE ${REMOVE_DUE}`,
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl', '#retention': 'retention_seconds' },
      ExpressionAttributeValues: { ':cancelled': 'cancelled', ':null': null, ':now': now, ...ttlFromChange(now), ':pending': 'pending' },
    });
  }

  /**
   * failed or cancelled -> pending, due now, keeping the attempt log (the replay's attempts are appended
   * to it). Returns the updated delivery, or null when it is not failed or cancelled (or unknown).
   * A succeeded delivery is not replayed, except to a listener (`feed`: a pull endpoint's delivery goes back
   * to the end of its feed, whatever its listener answered: the developer asked to see it again).
   */
  async resetForReplay(
    webhookId: string,
    deliveryId: string,
    now: string,
    attemptCount: number,
    options: { feed?: boolean } = {},
  ): Promise<WebhookDelivery | null> {
    const key = this.key(webhookId, deliveryId);
    if (!key) return null;
    const feed = options.feed ? feedAttributes(webhookId, eventUlidOf(deliveryId)!, now) : null;
    const due = feed
      ? { set: 'GSI3PK = :feedpk, GSI3SK = :feedsk', values: { ':feedpk': feed.GSI3PK, ':feedsk': feed.GSI3SK } }
      : this.pendingDue(webhookId, deliveryId, now);
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: key,
          // retry_base: the replay's retries are counted from the attempts made so far (kept for re-drives).
          UpdateExpression: `SET #status = :pending, next_attempt_at = :next, updated_at = :now, ${TTL_FROM_CHANGE}, retry_base = :count, ${due.set}`,
          ConditionExpression: `#status IN (:failed, :cancelled${feed ? ', :succeeded' : ''}) AND size(attempts) = :count`,
          ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl', '#retention': 'retention_seconds' },
          ExpressionAttributeValues: {
            ':pending': 'pending',
            ':now': now,
            ':next': feed ? null : now,
            ...ttlFromChange(now),
            ':failed': 'failed',
            ':cancelled': 'cancelled',
            ...(feed ? { ':succeeded': 'succeeded' } : {}),
            ':count': attemptCount,
            ...due.values,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toDelivery(result.Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /**
   * Undoes a replay whose queue message could not be sent: back to `previous` status, only while the
   * delivery is still pending with no attempt made since (`attemptCount` attempts).
   */
  async revertReplay(
    webhookId: string,
    deliveryId: string,
    previous: { status: DeliveryStatus; attemptCount: number },
    now: string,
  ): Promise<boolean> {
    return this.conditionalUpdate(webhookId, deliveryId, {
      UpdateExpression: `SET #status = :previous, next_attempt_at = :null, updated_at = :now REMOVE ${REMOVE_DUE}`,
      ConditionExpression: '#status = :pending AND size(attempts) = :count',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':previous': previous.status,
        ':null': null,
        ':now': now,
        ':pending': 'pending',
        ':count': previous.attemptCount,
      },
    });
  }

  /** Reconciler: moves a still-pending delivery's due time (after re-driving it); false when it is no longer pending. */
  async postponeDue(webhookId: string, deliveryId: string, dueAt: number): Promise<boolean> {
    const due = setDue('DELIVERY', deliveryDueId(webhookId, eventUlidOf(deliveryId) ?? deliveryId), dueAt);
    return this.conditionalUpdate(webhookId, deliveryId, {
      UpdateExpression: `SET ${due.set}`,
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ...due.values },
    });
  }

  /** Reconciler: takes a delivery that is no longer pending out of the due index. */
  async clearDue(webhookId: string, deliveryId: string): Promise<boolean> {
    return this.conditionalUpdate(webhookId, deliveryId, {
      UpdateExpression: `REMOVE ${REMOVE_DUE}`,
      ConditionExpression: 'attribute_exists(PK) AND #status <> :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    });
  }

  /**
   * One page of a pull endpoint's feed: its deliveries waiting for the listener's report, oldest first (by
   * the time each entered the feed: a replay goes to the end). The index is eventually consistent: a
   * delivery created a moment ago may show on the next read, one just reported may still show once.
   */
  listFeed(webhookId: string, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const partition = keys.webhookFeed(webhookId);
    const unexpired = unexpiredFilter(serviceClock.now().getTime());
    return queryPage(
      this.table,
      {
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': partition, ...unexpired.ExpressionAttributeValues },
        FilterExpression: unexpired.FilterExpression,
        ExpressionAttributeNames: unexpired.ExpressionAttributeNames,
        ScanIndexForward: true,
      },
      page,
      { GSI3PK: partition },
      (item) => ({ PK: item.PK, SK: item.SK, GSI3PK: item.GSI3PK, GSI3SK: item.GSI3SK }),
      toDelivery,
    );
  }

  /** One page of the endpoint's deliveries, newest first (by event time). */
  list(webhookId: string, page: PageRequest): Promise<Page<WebhookDelivery>> {
    // Those past their retention are left out (DynamoDB's TTL deletes lazily: docs/retention.md).
    return queryGsi1NewestFirst(this.table, keys.deliveriesByWebhook(webhookId), page, toDelivery, undefined, {
      unexpiredAt: serviceClock.now().getTime(),
    });
  }

  private async conditionalUpdate(
    webhookId: string,
    deliveryId: string,
    update: Pick<
      ConstructorParameters<typeof UpdateCommand>[0],
      'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
    >,
  ): Promise<boolean> {
    const key = this.key(webhookId, deliveryId);
    if (!key) return false;
    try {
      await this.table.client.send(new UpdateCommand({ TableName: this.table.name, Key: key, ...update }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
