/**
 * Webhook endpoints repository. One item per endpoint (PK WEBHOOK#<wh>), listed per account through
 * GSI1 (ACCOUNT#<acc>#WEBHOOKS / <wh>, newest first). The signing secret is stored sealed on the item
 * and only `get` hands it out (to the delivery worker); the endpoint mapper never includes it.
 * The per-account cap is the account's COUNTER#WEBHOOKS, a conditional ADD in the create transaction,
 * so concurrent creates can never exceed it; deletes give the slot back in the same transaction.
 *
 * A tenant filter is written in one transaction with an Update of each tenant it names that holds only
 * while the tenant is live and records the endpoint on it (`webhook_ids`, tenantTakesWebhook): once a
 * tenant's deletion has begun no endpoint can take it into its filter, and the deletion, reading the
 * tenant's `webhook_ids` strongly consistently, sees every endpoint that did. DynamoDB allows 100 items
 * per transaction: the endpoint, its slot and at most 98 tenants (MAX_WEBHOOK_TENANTS).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { EventType } from '../../domain/webhooks/event-types';
import { webhookEndpointSchema, type WebhookEndpoint } from '../../domain/webhooks/endpoint';
import { decodeItem } from './decode';
import { freeSlotItem, takeSlotItem } from './counters';
import { keys } from './keys';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import type { Page } from './cursor';
import {
  cancelledConditionIndexes,
  isConditionFailure,
  itemOfRefusedWrite,
  queryAll,
  setChanges,
  transactWrite,
  updateIfCondition,
  type Table,
} from './table';
import { tenantTakesWebhook, type TenantRef } from './tenant-condition';

export interface StoredWebhook {
  endpoint: WebhookEndpoint;
  /** The signing secret, sealed by the secret box (context webhookSecretContext(id)). */
  sealedSecret: string;
  /** The secret before the last rotation, sealed the same way; null when none (it signs until endpoint.previous_secret_expires_at). */
  previousSealedSecret: string | null;
}

/** A secret rotated; not found (in this account); or rotated by another request since the caller read the endpoint. */
export type RotateSecretOutcome = { kind: 'rotated'; endpoint: WebhookEndpoint } | { kind: 'not_found' } | { kind: 'conflict' };

export type CreateWebhookOutcome = { ok: true } | { ok: false; reason: 'limit' } | { ok: false; reason: 'tenant_gone'; tenant: TenantRef };

/** A tenant filter written: the endpoint as it is now; not found (in this account); or a named tenant is no longer live. */
export type SetTenantFilterOutcome =
  | { kind: 'updated'; endpoint: WebhookEndpoint }
  | { kind: 'not_found' }
  | { kind: 'tenant_gone'; tenant: TenantRef };

export interface WebhookChanges {
  url?: string;
  events?: EventType[];
  enabled?: boolean;
  /** null (or []) removes the tenant filter. */
  tenants?: string[] | null;
}

/** The account's counter of endpoints (its plan's cap; ./webhook-presence.ts reads it to skip accounts with none). */
export const WEBHOOKS_COUNTER = 'WEBHOOKS';
const COUNTER = WEBHOOKS_COUNTER;

/** The endpoint as stored, and its sealed secret. */
const storedWebhookSchema = webhookEndpointSchema.extend({ secret_sealed: z.string(), previous_secret_sealed: z.string().optional() });

/** The endpoint without its secret: the schema drops `secret_sealed`. No `tenants` (or none) reads as null: no filter. */
function toEndpoint(item: Record<string, unknown>): WebhookEndpoint {
  return unfiltered(decodeItem(webhookEndpointSchema, item, 'WebhookEndpoint'));
}

/** The endpoint item as stored (with its sealed secret): also read beside a delivery (./webhook-deliveries.ts). */
export function toStoredWebhook(item: Record<string, unknown>): StoredWebhook {
  const { secret_sealed, previous_secret_sealed, ...endpoint } = decodeItem(storedWebhookSchema, item, 'WebhookEndpoint');
  return { endpoint: unfiltered(endpoint), sealedSecret: secret_sealed, previousSealedSecret: previous_secret_sealed ?? null };
}

/** An empty filter is no filter (null), as a filter's removal leaves it. */
function unfiltered(endpoint: WebhookEndpoint): WebhookEndpoint {
  return endpoint.tenants !== null && endpoint.tenants.length === 0 ? { ...endpoint, tenants: null } : endpoint;
}

/** The endpoint's Update applying `changes` (a null or empty `tenants` removes the filter), only in this account. */
function changesUpdate(accountId: string, webhookId: string, changes: WebhookChanges, now: string) {
  const { tenants, ...rest } = changes;
  const removeFilter = tenants === null || tenants?.length === 0;
  const set = setChanges({ ...rest, ...(removeFilter ? {} : { tenants }) }, now);
  return {
    Key: keys.webhook(webhookId),
    UpdateExpression: removeFilter ? `${set.UpdateExpression} REMOVE #tenants` : set.UpdateExpression,
    ConditionExpression: '#account_id = :account',
    ExpressionAttributeNames: {
      ...set.ExpressionAttributeNames,
      '#account_id': 'account_id',
      ...(removeFilter ? { '#tenants': 'tenants' } : {}),
    },
    ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':account': accountId },
  };
}

export class WebhookRepository {
  constructor(private readonly table: Table) {}

  /**
   * Writes the endpoint and takes one of the account's `limit` slots, together; with `tenantRefs` (the
   * tenants its filter names, as resolved) each of them must be live and records it.
   */
  async create(
    endpoint: WebhookEndpoint,
    sealedSecret: string,
    limit: number,
    tenantRefs: readonly TenantRef[] = [],
  ): Promise<CreateWebhookOutcome> {
    // A new endpoint has not been rotated: those attributes are absent, not NULL, until a rotation sets them.
    // A push endpoint has no `delivery` attribute (as every endpoint before pull ones), a new one no `last_pulled_at`.
    const {
      tenants,
      secret_rotated_at: _rotated,
      previous_secret_expires_at: _expires,
      delivery,
      last_pulled_at: _pulled,
      ...rest
    } = endpoint;
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.webhook(endpoint.id),
              GSI1PK: keys.webhooksByAccount(endpoint.account_id),
              GSI1SK: endpoint.id,
              type: 'webhook',
              ...rest,
              ...(delivery === 'pull' ? { delivery } : {}),
              // Absent, not NULL, when the endpoint is not filtered to tenants.
              ...(tenants?.length ? { tenants } : {}),
              secret_sealed: sealedSecret,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        takeSlotItem(this.table, endpoint.account_id, COUNTER, limit),
        ...tenantRefs.map((tenant) => tenantTakesWebhook(this.table, tenant, endpoint.id)),
      ]);
      return { ok: true };
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      const gone = tenantRefs.find((_, i) => failed.includes(2 + i));
      if (gone) return { ok: false, reason: 'tenant_gone', tenant: gone };
      if (failed.includes(1)) return { ok: false, reason: 'limit' };
      throw error;
    }
  }

  /**
   * Sets a non-empty tenant filter (and any other changes) with the tenants' live condition, as `create`
   * does: every tenant named must be live, and each records the endpoint.
   */
  async setTenantFilter(
    accountId: string,
    webhookId: string,
    changes: Omit<WebhookChanges, 'tenants'>,
    tenantRefs: readonly TenantRef[],
    now: string,
  ): Promise<SetTenantFilterOutcome> {
    const filter = { ...changes, tenants: tenantRefs.map((tenant) => tenant.external_id) };
    try {
      await transactWrite(this.table, [
        { Update: { TableName: this.table.name, ...changesUpdate(accountId, webhookId, filter, now) } },
        ...tenantRefs.map((tenant) => tenantTakesWebhook(this.table, tenant, webhookId)),
      ]);
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0)) return { kind: 'not_found' };
      const gone = tenantRefs.find((_, i) => failed.includes(1 + i));
      if (gone) return { kind: 'tenant_gone', tenant: gone };
      throw error;
    }
    const stored = await this.get(webhookId);
    return stored ? { kind: 'updated', endpoint: stored.endpoint } : { kind: 'not_found' };
  }

  /**
   * The endpoint leaves these tenants' `webhook_ids` (it no longer names them, or is deleted). Best effort:
   * a leftover id only makes a tenant's deletion read one endpoint more; a tenant already gone is skipped
   * (the condition keeps the update from creating an item).
   */
  async forgetTenantRefs(accountId: string, externalIds: readonly string[], webhookId: string): Promise<void> {
    await Promise.all(
      externalIds.map((externalId) =>
        updateIfCondition(this.table, {
          Key: keys.tenant(accountId, externalId),
          UpdateExpression: 'DELETE webhook_ids :webhook',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':webhook': new Set([webhookId]) },
          ReturnValues: 'NONE',
        }),
      ),
    );
  }

  /** The endpoint and its sealed secret (strongly consistent), or null. */
  async get(webhookId: string): Promise<StoredWebhook | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.webhook(webhookId), ConsistentRead: true }),
    );
    return result.Item ? toStoredWebhook(result.Item) : null;
  }

  /** One page of the account's endpoints, newest first. */
  list(accountId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return queryGsi1NewestFirst(this.table, keys.webhooksByAccount(accountId), page, toEndpoint);
  }

  /**
   * Every endpoint of the account (enabled or not), newest first, for event fan-out. Reads the index
   * (eventually consistent: an endpoint created a moment ago may be missed by an event of that moment).
   */
  listForAccount(accountId: string): Promise<WebhookEndpoint[]> {
    return queryAll(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.webhooksByAccount(accountId) },
        ScanIndexForward: false,
      },
      toEndpoint,
    );
  }

  /** Applies the defined changes; null when the endpoint does not exist in this account. */
  async update(accountId: string, webhookId: string, changes: WebhookChanges, now: string): Promise<WebhookEndpoint | null> {
    const item = await updateIfCondition(this.table, changesUpdate(accountId, webhookId, changes, now));
    return item ? toEndpoint(item) : null;
  }

  /**
   * Replaces the tenant filter (and `enabled`) only if the filter is still exactly `expected` (as read):
   * a concurrent PATCH is never overwritten; false then (read again and retry).
   */
  async replaceTenantFilter(
    webhookId: string,
    expected: string[],
    next: { tenants: string[] | null; enabled: boolean },
    now: string,
  ): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.webhook(webhookId),
      UpdateExpression: next.tenants
        ? 'SET #tenants = :tenants, #enabled = :enabled, updated_at = :now'
        : 'SET #enabled = :enabled, updated_at = :now REMOVE #tenants',
      ConditionExpression: '#tenants = :expected',
      ExpressionAttributeNames: { '#tenants': 'tenants', '#enabled': 'enabled' },
      ExpressionAttributeValues: {
        ':expected': expected,
        ':enabled': next.enabled,
        ':now': now,
        ...(next.tenants ? { ':tenants': next.tenants } : {}),
      },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /**
   * Rotates the signing secret: `sealed` becomes the secret and the one the caller read (`current`) the
   * previous, signing until `previousExpiresAt` (null: the previous stops at once and is not kept). Only while
   * the secret is still `current`: of two rotations at once one wins, the other is a conflict (no secret is lost
   * between them).
   */
  async rotateSecret(
    accountId: string,
    webhookId: string,
    rotation: { current: string; sealed: string; previousExpiresAt: string | null; now: string },
  ): Promise<RotateSecretOutcome> {
    const keep = rotation.previousExpiresAt !== null;
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.webhook(webhookId),
          UpdateExpression: keep
            ? 'SET secret_sealed = :sealed, previous_secret_sealed = :current, previous_secret_expires_at = :expires, secret_rotated_at = :now, updated_at = :now'
            : 'SET secret_sealed = :sealed, secret_rotated_at = :now, updated_at = :now REMOVE previous_secret_sealed, previous_secret_expires_at',
          ConditionExpression: 'account_id = :account AND secret_sealed = :current',
          ExpressionAttributeValues: {
            ':account': accountId,
            ':current': rotation.current,
            ':sealed': rotation.sealed,
            ':now': rotation.now,
            ...(keep ? { ':expires': rotation.previousExpiresAt } : {}),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'rotated', endpoint: toEndpoint(result.Attributes!) };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const item = itemOfRefusedWrite(error);
      return item && item.account_id === accountId ? { kind: 'conflict' } : { kind: 'not_found' };
    }
  }

  /**
   * A pull endpoint's feed was read at `now`: recorded unless a read since `since` already was (so a listener
   * polling every second writes once a minute). False when not recorded (recorded already, or not found).
   */
  async markPulled(accountId: string, webhookId: string, now: string, since: string): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.webhook(webhookId),
      UpdateExpression: 'SET last_pulled_at = :now',
      ConditionExpression: 'account_id = :account AND (attribute_not_exists(last_pulled_at) OR last_pulled_at < :since)',
      ExpressionAttributeValues: { ':account': accountId, ':now': now, ':since': since },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /** The previous secret stops signing now (and is not kept); null when the endpoint is not found in this account. */
  async expirePreviousSecret(accountId: string, webhookId: string, now: string): Promise<WebhookEndpoint | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.webhook(webhookId),
      UpdateExpression: 'SET updated_at = :now REMOVE previous_secret_sealed, previous_secret_expires_at',
      ConditionExpression: 'account_id = :account',
      ExpressionAttributeValues: { ':account': accountId, ':now': now },
    });
    return item ? toEndpoint(item) : null;
  }

  /** Deletes the endpoint and frees its slot, together. False when not found (in this account). */
  async delete(accountId: string, webhookId: string): Promise<boolean> {
    try {
      await transactWrite(this.table, [
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.webhook(webhookId),
            ConditionExpression: 'account_id = :account',
            ExpressionAttributeValues: { ':account': accountId },
          },
        },
        freeSlotItem(this.table, accountId, COUNTER),
      ]);
      return true;
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return false;
      throw error;
    }
  }
}
