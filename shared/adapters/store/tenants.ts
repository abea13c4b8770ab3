/**
 * Tenants repository. A tenant is keyed by its account and external_id, so the external_id is unique
 * per account by the item key itself (a conditional put: concurrent creates make exactly one), and the
 * usual way of naming a tenant resolves in one read. A small alias item per tenant id leads from our id
 * to that key. Creation takes a slot of the account's tenant counter (conditional ADD against the
 * plan's limit) in the same transaction, so concurrent creates never exceed it.
 *
 * Deletion is two steps so it can be retried when interrupted: `markDeleting` (the tenant disappears
 * for every other purpose at once), the caller's clean-up, then `remove` (items and the slot).
 *
 * The tenant item also holds `webhook_ids`, the endpoints whose tenant filter names it (added in the
 * endpoint's own transaction, conditional on the tenant being live: shared/adapters/store/tenant-condition.ts),
 * which its deletion reads strongly consistently. The alias items are listed together (GSI1 TENANTIDS),
 * for the reconciler's SES tenants sweep.
 *
 * `ses_tls_twin` on the tenant item records that its SES tenant has the TLS-required configuration set
 * associated (docs/ses-tenants.md, "Reconciliation"): written at creation (the use case opens the SES
 * tenant with both sets before it stores the tenant), or by the sweep once it associated the set with a
 * tenant opened before that; the sweep skips a tenant that has it.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { RampState } from '../../domain/tenants/ramp';
import { tenantSchema, type Tenant, type TenantStatus } from '../../domain/tenants/tenant';
import { batchGetItems } from './batch-get';
import { freeSlotItem, takeSlotItem } from './counters';
import type { Page } from './cursor';
import { decodeItem } from './decode';
import { keys } from './keys';
import { queryPage, type PageRequest } from './paginate';
import { cancelledConditionIndexes, setChanges, transactWrite, updateIfCondition, type Table } from './table';

export const TENANT_COUNTER = 'TENANTS';

export type CreateTenantOutcome = { kind: 'created' } | { kind: 'duplicate' } | { kind: 'limit_reached' };

/** A tenant as stored: the model, its ramp state, and whether a deletion has begun (such a tenant exists for nobody else). */
export interface StoredTenant {
  tenant: Tenant;
  ramp: RampState;
  deleting: boolean;
  /** Its SES tenant has the TLS-required configuration set associated (`ses_tls_twin`); absent on tenants opened before. */
  sesTlsTwin?: boolean;
}

/**
 * A tenant item in today's layout, whatever its age (reads go through here).
 * Items written before 2e18404 (2026-11-22, the ramp) have no `ramp_stage` / `ramp_day`: stage 1 from
 * the tenant's creation day.
 * Items written before 9176011 (2026-11-24, the TLS-required twin) have no `ses_tls_twin`: their SES
 * tenant was opened without it (the SES tenants sweep associates it, then records it).
 */
function upgradeTenantItem<T extends Record<string, unknown>>(
  item: T,
): T & { ramp_stage: unknown; ramp_day: unknown; ses_tls_twin: boolean } {
  return {
    ...item,
    ramp_stage: item.ramp_stage ?? 1,
    ramp_day: item.ramp_day ?? String(item.created_at).slice(0, 10),
    ses_tls_twin: item.ses_tls_twin === true,
  };
}

/**
 * The tenant item as its upgrade leaves it: the tenant and the store's bookkeeping (the ramp, `deleting`
 * while a deletion runs, `ses_tls_twin`). `webhook_ids`, the endpoints' bookkeeping, is read by
 * webhookIdsOf alone (the schema drops it).
 */
const tenantItemSchema = tenantSchema.extend({
  ramp_stage: z.number(),
  ramp_day: z.string(),
  ses_tls_twin: z.boolean(),
  deleting: z.boolean().optional(),
});

/** The tenant item as read (the send path reads it in its own batch). */
export function toStoredTenant(item: Record<string, unknown>): StoredTenant {
  const { ramp_stage, ramp_day, ses_tls_twin, deleting, ...tenant } = decodeItem(tenantItemSchema, upgradeTenantItem(item), 'Tenant');
  return { tenant, ramp: { stage: ramp_stage, day: ramp_day }, deleting: deleting === true, sesTlsTwin: ses_tls_twin };
}

/** What a tenant id alias says: the tenant's account and external_id. */
export interface TenantAlias {
  id: string;
  account_id: string;
  external_id: string;
}

/** One page of every tenant id (the SES tenants sweep) and where the next one starts (null: this was the last). */
export interface TenantAliasPage {
  aliases: TenantAlias[];
  next: Record<string, unknown> | null;
}

const tenantAliasSchema = z.object({ account_id: z.string(), external_id: z.string() });

/** A tenant id alias item (`TENANTID#<ten>`) as the alias it holds. */
export function toTenantAlias(item: Record<string, unknown>): TenantAlias {
  const { account_id, external_id } = decodeItem(tenantAliasSchema, item, 'TenantAlias');
  return { id: String(item.PK).slice('TENANTID#'.length), account_id, external_id };
}

const TENANT_ID = /^ten_[0-9A-Z]{26}$/;

export function looksLikeTenantId(ref: string): boolean {
  return TENANT_ID.test(ref);
}

export class TenantRepository {
  constructor(private readonly table: Table) {}

  /** Stores a tenant whose SES tenant was opened with both configuration sets (openSesTenant, usecases/tenants/tenants.ts): recorded as such. */
  async create(tenant: Tenant, limit: number): Promise<CreateTenantOutcome> {
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.tenant(tenant.account_id, tenant.external_id),
              GSI1PK: keys.tenantsByAccount(tenant.account_id),
              GSI1SK: tenant.id,
              type: 'tenant',
              ...tenant,
              ramp_stage: 1,
              ramp_day: tenant.created_at.slice(0, 10),
              ses_tls_twin: true,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.tenantId(tenant.id),
              GSI1PK: keys.allTenantIds(),
              GSI1SK: tenant.id,
              type: 'tenant_id',
              account_id: tenant.account_id,
              external_id: tenant.external_id,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        takeSlotItem(this.table, tenant.account_id, TENANT_COUNTER, limit),
      ]);
      return { kind: 'created' };
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0)) return { kind: 'duplicate' };
      if (failed.includes(2)) return { kind: 'limit_reached' };
      throw error;
    }
  }

  async getByExternalId(accountId: string, externalId: string): Promise<StoredTenant | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.tenant(accountId, externalId), ConsistentRead: true }),
    );
    return result.Item ? toStoredTenant(result.Item) : null;
  }

  /**
   * The account's tenant named `ref`: by external_id first (one read), else by id (the alias leads to
   * it). Deleting tenants are returned as such; the caller decides.
   */
  async find(accountId: string, ref: string): Promise<StoredTenant | null> {
    const wanted = [keys.tenant(accountId, ref), ...(looksLikeTenantId(ref) ? [keys.tenantId(ref)] : [])];
    const items = await batchGetItems(this.table, wanted, { consistentRead: true });
    const byExternalId = items.find((item) => item.SK === 'TENANT');
    if (byExternalId) return toStoredTenant(byExternalId);
    const aliasItem = items.find((item) => item.SK === 'TENANTID');
    const alias = aliasItem ? toTenantAlias(aliasItem) : null;
    if (!alias || alias.account_id !== accountId) return null;
    const stored = await this.getByExternalId(accountId, alias.external_id);
    return stored && stored.tenant.id === ref ? stored : null;
  }

  /**
   * Which of these tenants still exist (not being deleted), by id, for showing `tenant` on records that
   * name a tenant by account, external_id and id: one batch read of the tenant items (an external_id
   * reused by a newer tenant has another id, so the old tenant counts as gone).
   */
  async existing(refs: readonly Pick<Tenant, 'id' | 'account_id' | 'external_id'>[]): Promise<Map<string, Tenant>> {
    if (refs.length === 0) return new Map();
    const items = await batchGetItems(
      this.table,
      refs.map((ref) => keys.tenant(ref.account_id, ref.external_id)),
    );
    const ids = new Set(refs.map((ref) => ref.id));
    const found = new Map<string, Tenant>();
    for (const item of items) {
      const { tenant, deleting } = toStoredTenant(item);
      if (!deleting && ids.has(tenant.id)) found.set(tenant.id, tenant);
    }
    return found;
  }

  /**
   * The endpoints whose tenant filter named this tenant when they were written (strongly consistent; some
   * may have left it since). [] when the tenant is gone or has none.
   */
  async webhookIdsOf(tenant: Pick<Tenant, 'account_id' | 'external_id'>): Promise<string[]> {
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.tenant(tenant.account_id, tenant.external_id),
        ProjectionExpression: 'webhook_ids',
        ConsistentRead: true,
      }),
    );
    const ids = result.Item?.webhook_ids;
    return ids instanceof Set ? [...(ids as Set<string>)].sort() : [];
  }

  /** The aliases of these tenant ids that exist (read strongly consistently), by id. */
  async aliases(ids: readonly string[]): Promise<Map<string, TenantAlias>> {
    if (ids.length === 0) return new Map();
    const items = await batchGetItems(
      this.table,
      ids.map((id) => keys.tenantId(id)),
      { consistentRead: true },
    );
    return new Map(items.map((item) => toTenantAlias(item)).map((alias) => [alias.id, alias]));
  }

  /** Every tenant's alias, oldest first, a page at a time (GSI1: tenants created before the index carry no entry). */
  async aliasPage(after: Record<string, unknown> | null, limit: number): Promise<TenantAliasPage> {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.allTenantIds() },
        Limit: limit,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    return { aliases: (result.Items ?? []).map(toTenantAlias), next: result.LastEvaluatedKey ?? null };
  }

  /** Newest first; `status` filters (the page fills across filtered-out tenants). Deleting tenants are left out. */
  list(accountId: string, page: PageRequest, status?: TenantStatus): Promise<Page<Tenant>> {
    const partition = keys.tenantsByAccount(accountId);
    const filters = ['attribute_not_exists(deleting)', ...(status ? ['#status = :status'] : [])];
    return queryPage(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        FilterExpression: filters.join(' AND '),
        ExpressionAttributeValues: { ':pk': partition, ...(status ? { ':status': status } : {}) },
        ...(status ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ScanIndexForward: false,
      },
      page,
      { GSI1PK: partition },
      (item) => ({ PK: item.PK, SK: item.SK, GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK }),
      (item) => toStoredTenant(item).tenant,
    );
  }

  /**
   * Changes fields of a tenant that is not being deleted. `unless` adds a condition on the stored item
   * (e.g. "not paused by the service"); null when the tenant is gone or the condition failed.
   */
  async update(
    tenant: Pick<Tenant, 'account_id' | 'external_id'>,
    changes: Partial<Omit<Tenant, 'id' | 'account_id' | 'external_id' | 'created_at'>>,
    now: string,
    unless?: { pausedBy: 'automated' },
  ): Promise<Tenant | null> {
    const update = setChanges(changes, now);
    const conditions = ['attribute_exists(PK)', 'attribute_not_exists(deleting)'];
    const values: Record<string, unknown> = { ...update.ExpressionAttributeValues };
    if (unless) {
      conditions.push('(attribute_not_exists(pause_source) OR pause_source <> :automated)');
      values[':automated'] = unless.pausedBy;
    }
    const item = await updateIfCondition(this.table, {
      Key: keys.tenant(tenant.account_id, tenant.external_id),
      ...update,
      ExpressionAttributeValues: values,
      ConditionExpression: conditions.join(' AND '),
    });
    return item ? toStoredTenant(item).tenant : null;
  }

  /**
   * Moves the ramp from the state read to the next one, only if no one moved it meanwhile (the day it
   * was evaluated for is still `from.day`). False when another send got there first (then re-read).
   */
  async advanceRamp(tenant: Pick<Tenant, 'account_id' | 'external_id'>, from: RampState, to: RampState): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.tenant(tenant.account_id, tenant.external_id),
      UpdateExpression: 'SET ramp_stage = :stage, ramp_day = :day',
      ConditionExpression: 'attribute_exists(PK) AND (ramp_day = :from OR attribute_not_exists(ramp_day))',
      ExpressionAttributeValues: { ':stage': to.stage, ':day': to.day, ':from': from.day },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /**
   * The service pauses a tenant (by id): only while it is active and not being deleted, so a manual
   * pause keeps its reason and concurrent checks pause once. False when it was not active (or is gone).
   */
  async pauseAutomatically(tenantId: string, reason: string, now: string): Promise<boolean> {
    const found = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.tenantId(tenantId), ConsistentRead: true }),
    );
    if (!found.Item) return false;
    const alias = toTenantAlias(found.Item);
    const item = await updateIfCondition(this.table, {
      Key: keys.tenant(alias.account_id, alias.external_id),
      UpdateExpression: 'SET #status = :paused, pause_source = :automated, paused_reason = :reason, paused_at = :now, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK) AND id = :id AND #status = :active AND attribute_not_exists(deleting)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':paused': 'paused',
        ':automated': 'automated',
        ':reason': reason,
        ':now': now,
        ':id': tenantId,
        ':active': 'active',
      },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /**
   * Records that the tenant's SES tenant has the TLS-required configuration set associated (the SES tenants
   * sweep, after associating it): one conditional SET on the tenant with this id, idempotent; false when
   * the tenant is gone (or its external_id now names another tenant).
   */
  async recordSesTlsTwin(tenant: Pick<Tenant, 'id' | 'account_id' | 'external_id'>): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.tenant(tenant.account_id, tenant.external_id),
      UpdateExpression: 'SET ses_tls_twin = :true',
      ConditionExpression: 'attribute_exists(PK) AND id = :id',
      ExpressionAttributeValues: { ':true': true, ':id': tenant.id },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /** First step of a deletion: from now on the tenant exists for nobody but the deletion. Idempotent. */
  async markDeleting(tenant: Pick<Tenant, 'account_id' | 'external_id'>, now: string): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.tenant(tenant.account_id, tenant.external_id),
      UpdateExpression: 'SET deleting = :true, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':true': true, ':now': now },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /** Last step of a deletion: the tenant, its id alias and its slot, together. False when already gone. */
  async remove(tenant: Pick<Tenant, 'id' | 'account_id' | 'external_id'>): Promise<boolean> {
    try {
      await transactWrite(this.table, [
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.tenant(tenant.account_id, tenant.external_id),
            ConditionExpression: 'attribute_exists(PK) AND id = :id',
            ExpressionAttributeValues: { ':id': tenant.id },
          },
        },
        { Delete: { TableName: this.table.name, Key: keys.tenantId(tenant.id) } },
        freeSlotItem(this.table, tenant.account_id, TENANT_COUNTER),
      ]);
      return true;
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(0)) return false;
      throw error;
    }
  }
}
