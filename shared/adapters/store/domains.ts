/**
 * Domains repository. A domain name has one owner: a claim item keyed by the name is written with
 * `attribute_not_exists` in the same transaction as the domain and the account's domain counter
 * (conditional ADD against the plan's limit), so concurrent adds can neither create two owners nor
 * exceed the limit.
 *
 * A domain belongs to the whole account or to one of its tenants. The owning tenant is written in ONE
 * transaction on three items whenever it changes: the domain (`tenant_id`, `tenant` = external_id), its
 * name claim (`tenant_id`, read by the send path) and a membership item under the tenant (listing the
 * tenant's domains and returning them on the tenant's deletion, read strongly consistently). Giving a
 * domain to a tenant is conditional on the domain having no tenant (two tenants racing: one wins) and
 * on the tenant being live (tenant-condition.ts: nothing is attached to a tenant being deleted).
 */
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import {
  DOMAIN_STATUSES,
  domainSchema,
  type DnsRecord,
  type Domain,
  type DomainStatus,
  type ProviderVerification,
  type TlsMode,
} from '../../domain/domains/domain';
import { batchGetItems } from './batch-get';
import { freeSlotItem, takeSlotItem } from './counters';
import { decodeItem } from './decode';
import { keys } from './keys';
import { queryGsi1NewestFirst, queryPage, type PageRequest } from './paginate';
import type { Page } from './cursor';
import { cancelledConditionIndexes, setChanges, transactWrite, updateIfCondition, withoutNullFields, type Table } from './table';
import { tenantIsLiveCheck, type TenantRef } from './tenant-condition';
import type { InboundChange } from '../../domain/domains/inbound-change';
import { DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '../../domain/reliability/bounds';
import { REMOVE_DUE, setDue } from './due-index';
import { reportAddressItem } from './dmarc-addresses';

const tenantDomainKey = keys.tenantDomain;
const tenantDomainsPartition = keys.tenantDomains;

export interface StoredDomain {
  domain: Domain;
  /** The DKIM private key, sealed by the secret box. */
  sealedPrivateKey: string;
  /**
   * When a check first found the provider still verifying the domain (ISO; null or absent when it is
   * not): the start of SES's 72-hour window, for the reconciler (shared/domain/domains/provider-recheck.ts).
   */
  providerPendingSince?: string | null;
}

/**
 * What a send needs to know about its sender's domain, kept on the name claim item (one read by name,
 * in the send's batch) and written together with the domain whenever its status changes.
 */
export interface SenderDomain {
  id: string;
  account_id: string;
  status: DomainStatus;
  /** The tenant id owning the domain (claim attribute `tenant_id`), null for an account-wide domain. */
  tenant_id: string | null;
}

/**
 * A claim item in today's layout, whatever its age (reads go through here). The claim of an account-wide
 * domain has no `tenant_id` (null), as have items written before 8009b52 (2026-11-22, tenant send rules).
 * Items written before 57eb99f (2026-11-22, the send core's one context read) have no `status`: it stays
 * undefined, and the send path reads the domain item instead (shared/usecases/send/send-email.ts).
 */
function upgradeClaimItem<T extends Record<string, unknown>>(item: T): T {
  return { ...item, tenant_id: item.tenant_id ?? null };
}

/** The claim item as its upgrade leaves it (`status` absent on the oldest claims). */
const claimItemSchema = z.object({
  domain_id: z.string(),
  account_id: z.string(),
  status: z.enum(DOMAIN_STATUSES).optional(),
  tenant_id: z.string().nullable(),
});

/** The claim item as read: its owner, and the send-time fields. */
export function toSenderDomain(
  stored: Record<string, unknown>,
): SenderDomain | { id: string; account_id: string; status: undefined; tenant_id: string | null } {
  const item = decodeItem(claimItemSchema, upgradeClaimItem(stored), 'SenderDomain');
  return { id: item.domain_id, account_id: item.account_id, status: item.status, tenant_id: item.tenant_id };
}

export type CreateDomainOutcome =
  | { ok: true }
  | { ok: false; reason: 'claimed'; ownerAccountId: string; ownerDomainId: string }
  | { ok: false; reason: 'limit' }
  | { ok: false; reason: 'tenant_gone' };

export type AssignDomainOutcome =
  | { kind: 'assigned'; domain: Domain }
  | { kind: 'already'; domain: Domain }
  | { kind: 'other_tenant'; domain: Domain }
  | { kind: 'not_found' }
  | { kind: 'tenant_gone' };

export type DeleteDomainOutcome = 'deleted' | 'changed' | 'not_found';

/**
 * A change of the domain's DMARC report address (shared/domain/domains/dmarc-reports.ts), planned from the
 * domain as read: `from` the address it had, `to` the one it gets (null: off), and the new value of its
 * suggested DMARC record (at `recordIndex` in `records`, null when it has none).
 */
export interface DmarcReportsChange {
  from: string | null;
  to: string | null;
  recordIndex: number | null;
  recordValue: string;
}

/**
 * Absent (not NULL) until set: the late fields are set later with if_not_exists; the owner fields are
 * removed when a domain returns to the account, and `attribute_not_exists(tenant_id)` says "account-wide".
 * Each reads as null (domainSchema's defaults).
 */
const LATE_FIELDS = ['verified_at', 'last_checked_at', 'tenant_id', 'tenant', 'provider'] as const;

/** The domain item: the domain, its sealed DKIM key, and the start of the provider's window while it verifies. */
const domainItemSchema = domainSchema.extend({
  dkim_private_key_sealed: z.string(),
  provider_pending_since: z.string().nullable().optional(),
});

function toStoredDomain(item: Record<string, unknown>): StoredDomain {
  const { dkim_private_key_sealed, provider_pending_since, ...domain } = decodeItem(domainItemSchema, item, 'Domain');
  return { domain, sealedPrivateKey: dkim_private_key_sealed, providerPendingSince: provider_pending_since ?? null };
}

/** A domain without its key (a listing, a write's answer): the schema drops `dkim_private_key_sealed`. */
function toDomain(item: Record<string, unknown>): Domain {
  return decodeItem(domainSchema, item, 'Domain');
}

/**
 * The part of a check's write that keeps the due index (shared/adapters/store/due-index.ts, kind DOMAIN) in step
 * with the provider's verification: a check finding the provider still verifying puts the domain in the
 * index, due a re-check later, and starts the provider's window (kept by the next pending checks); any
 * other check takes it out. The reconciler then asks the provider (shared/usecases/domains/reconcile-provider-pending.ts).
 */
function providerRecheckWrite(domainId: string, provider: ProviderVerification | undefined, at: string, recheckMs: number) {
  if (provider?.status !== 'pending') return { set: '', remove: ` REMOVE ${REMOVE_DUE}, provider_pending_since`, values: {} };
  const due = setDue('DOMAIN', domainId, Date.parse(at) + recheckMs);
  return { set: `, ${due.set}, provider_pending_since = if_not_exists(provider_pending_since, :at)`, remove: '', values: due.values };
}

export class DomainRepository {
  constructor(
    private readonly table: Table,
    private readonly bounds: Pick<RecoveryBounds, 'providerRecheckMs'> = DEFAULT_RECOVERY_BOUNDS,
  ) {}

  /** Adds the domain (owned by `tenant` when given: `domain.tenant_id` must be its id). */
  async create(domain: Domain, sealedPrivateKey: string, limit: number, tenant: TenantRef | null = null): Promise<CreateDomainOutcome> {
    if ((tenant?.id ?? null) !== (domain.tenant_id ?? null)) throw new Error('domain.tenant_id must be the given tenant');
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.domainName(domain.name),
              type: 'domain_name',
              account_id: domain.account_id,
              domain_id: domain.id,
              status: domain.status,
              ...(tenant ? { tenant_id: tenant.id } : {}),
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.domain(domain.id),
              GSI1PK: keys.domainsByAccount(domain.account_id),
              GSI1SK: domain.id,
              type: 'domain',
              ...withoutNullFields(domain, LATE_FIELDS),
              dkim_private_key_sealed: sealedPrivateKey,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        takeSlotItem(this.table, domain.account_id, 'DOMAINS', limit),
        ...(tenant
          ? [
              {
                Put: {
                  TableName: this.table.name,
                  Item: this.membershipItem(domain.account_id, tenant.id, domain.id),
                  ConditionExpression: 'attribute_not_exists(PK)',
                },
              },
              tenantIsLiveCheck(this.table, tenant),
            ]
          : []),
      ]);
      return { ok: true };
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(4)) return { ok: false, reason: 'tenant_gone' };
      if (failed.includes(0)) {
        const claim = await this.claimOf(domain.name);
        return { ok: false, reason: 'claimed', ownerAccountId: claim?.account_id ?? '', ownerDomainId: claim?.domain_id ?? '' };
      }
      if (failed.includes(2)) return { ok: false, reason: 'limit' };
      throw error;
    }
  }

  async claimOf(name: string): Promise<{ account_id: string; domain_id: string } | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.domainName(name), ConsistentRead: true }),
    );
    return result.Item ? { account_id: result.Item.account_id, domain_id: result.Item.domain_id } : null;
  }

  async get(domainId: string): Promise<StoredDomain | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.domain(domainId), ConsistentRead: true }),
    );
    return result.Item ? toStoredDomain(result.Item) : null;
  }

  /** The domain of that name owned by that account, or null. */
  async findOwned(accountId: string, name: string): Promise<StoredDomain | null> {
    const claim = await this.claimOf(name);
    if (!claim || claim.account_id !== accountId) return null;
    const stored = await this.get(claim.domain_id);
    return stored && stored.domain.account_id === accountId ? stored : null;
  }

  /** The account's domain named by id (`dom_...`) or by name; null when it is not this account's. */
  async findByRef(accountId: string, ref: string): Promise<StoredDomain | null> {
    if (DOMAIN_ID.test(ref)) {
      const stored = await this.get(ref);
      return stored && stored.domain.account_id === accountId ? stored : null;
    }
    return this.findOwned(accountId, ref.toLowerCase());
  }

  /** Every domain of the account (account-wide and tenants'), newest first. */
  list(accountId: string, page: PageRequest): Promise<Page<Domain>> {
    return queryGsi1NewestFirst(this.table, keys.domainsByAccount(accountId), page, toDomain);
  }

  /** One tenant's domains, newest first (the membership partition, then the domains in one batch). */
  async listForTenant(tenantId: string, page: PageRequest): Promise<Page<Domain>> {
    const PK = tenantDomainsPartition(tenantId);
    const ids = await queryPage(
      this.table,
      { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PK }, ScanIndexForward: false, ConsistentRead: true },
      page,
      { PK },
      (item) => ({ PK: item.PK, SK: item.SK }),
      (item) => item.SK as string,
    );
    const items = await batchGetItems(
      this.table,
      ids.items.map((id) => keys.domain(id)),
      { consistentRead: true },
    );
    const byId = new Map(items.map((item) => [item.id as string, toDomain(item)]));
    const domains = ids.items.flatMap((id) => {
      const domain = byId.get(id);
      return domain && domain.tenant_id === tenantId ? [domain] : [];
    });
    return { items: domains, next_cursor: ids.next_cursor };
  }

  /** Up to `limit` ids of the tenant's domains (strongly consistent), for returning them to the account. */
  async tenantDomainIds(tenantId: string, limit: number): Promise<string[]> {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': tenantDomainsPartition(tenantId) },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => item.SK as string);
  }

  /**
   * Changes delivery settings of a domain of the account; with `tenantId`, only while that tenant owns
   * it (a key limited to a tenant). With `inbound`, receiving is turned on or off in the same write
   * (shared/domain/domains/inbound-change.ts), conditional on the state the change was planned from.
   * Null when a condition does not hold (the domain is gone, not the owner's, or changed meanwhile).
   */
  async updateSettings(
    owner: { accountId: string; tenantId: string | null },
    domainId: string,
    changes: { open_tracking?: boolean; click_tracking?: boolean; tls_mode?: TlsMode; inbound_store_content?: boolean },
    now: string,
    inbound?: InboundChange,
  ): Promise<Domain | null> {
    const update = setChanges(changes, now);
    const receiving = inbound ? inboundWrite(inbound) : { sets: [], removes: [], conditions: [], names: {}, values: {} };
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression:
        [update.UpdateExpression, ...receiving.sets].join(', ') +
        (receiving.removes.length ? ` REMOVE ${receiving.removes.join(', ')}` : ''),
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...receiving.names },
      ExpressionAttributeValues: {
        ...update.ExpressionAttributeValues,
        ...receiving.values,
        ':account': owner.accountId,
        ...(owner.tenantId ? { ':tenant': owner.tenantId } : {}),
      },
      ConditionExpression: [
        owner.tenantId ? 'account_id = :account AND tenant_id = :tenant' : 'account_id = :account',
        ...receiving.conditions,
      ].join(' AND '),
    });
    return item ? toDomain(item) : null;
  }

  /**
   * Sets or clears the domain's DMARC report address, its suggested DMARC record's value and the
   * address's pointer item (./dmarc-addresses.ts: the old one deleted, the new one put) in one
   * transaction, conditional on the owner and on the address read (`change.from`) and the record's
   * position: null when a condition does not hold (gone, not the owner's, changed meanwhile).
   */
  async changeDmarcReports(
    owner: { accountId: string; tenantId: string | null },
    domain: Pick<Domain, 'id' | 'name'>,
    change: DmarcReportsChange,
    now: string,
  ): Promise<Domain | null> {
    const record = change.recordIndex === null ? null : `#records[${change.recordIndex}]`;
    const sets = ['#updated_at = :now', ...(change.to ? ['#dmarc = :to'] : []), ...(record ? [`${record}.#value = :record_value`] : [])];
    const conditions = [
      owner.tenantId ? 'account_id = :account AND tenant_id = :tenant' : 'account_id = :account',
      change.from ? '#dmarc = :from' : 'attribute_not_exists(#dmarc)',
      ...(record ? [`${record}.#purpose = :dmarc_purpose`] : []),
    ];
    const target = { account_id: owner.accountId, domain_id: domain.id, domain: domain.name };
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domain(domain.id),
            UpdateExpression: `SET ${sets.join(', ')}${change.to ? '' : ' REMOVE #dmarc'}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: {
              '#updated_at': 'updated_at',
              '#dmarc': 'dmarc_reports_address',
              ...(record ? { '#records': 'records', '#value': 'value', '#purpose': 'purpose' } : {}),
            },
            ExpressionAttributeValues: {
              ':now': now,
              ':account': owner.accountId,
              ...(owner.tenantId ? { ':tenant': owner.tenantId } : {}),
              ...(change.to ? { ':to': change.to } : {}),
              ...(change.from ? { ':from': change.from } : {}),
              ...(record ? { ':record_value': change.recordValue, ':dmarc_purpose': 'dmarc' } : {}),
            },
          },
        },
        ...(change.from && change.from !== change.to
          ? [{ Delete: { TableName: this.table.name, Key: keys.dmarcReportAddress(change.from, domain.id) } }]
          : []),
        ...(change.to ? [{ Put: { TableName: this.table.name, Item: reportAddressItem(change.to, target) } }] : []),
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return null;
      throw error;
    }
    return (await this.get(domain.id))?.domain ?? null;
  }

  /**
   * Gives an account-wide domain to a tenant: the domain, its claim and the membership in one
   * transaction, only while the domain has no tenant and the tenant is live. Already this tenant's:
   * `already` (nothing written); another tenant's: `other_tenant`.
   */
  async assignToTenant(
    accountId: string,
    domain: Pick<Domain, 'id' | 'name'>,
    tenant: TenantRef,
    now: string,
  ): Promise<AssignDomainOutcome> {
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domain(domain.id),
            UpdateExpression: 'SET tenant_id = :tenant_id, tenant = :tenant, updated_at = :now',
            ConditionExpression: 'account_id = :account AND attribute_not_exists(tenant_id)',
            ExpressionAttributeValues: { ':tenant_id': tenant.id, ':tenant': tenant.external_id, ':now': now, ':account': accountId },
          },
        },
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domainName(domain.name),
            UpdateExpression: 'SET tenant_id = :tenant_id',
            ConditionExpression: 'domain_id = :domain',
            ExpressionAttributeValues: { ':tenant_id': tenant.id, ':domain': domain.id },
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: this.membershipItem(accountId, tenant.id, domain.id),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        tenantIsLiveCheck(this.table, tenant),
      ]);
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.length === 0) throw error;
      const current = await this.get(domain.id);
      if (!current || current.domain.account_id !== accountId) return { kind: 'not_found' };
      if (current.domain.tenant_id === tenant.id) return { kind: 'already', domain: current.domain };
      if (current.domain.tenant_id) return { kind: 'other_tenant', domain: current.domain };
      if (failed.includes(3)) return { kind: 'tenant_gone' };
      return { kind: 'not_found' };
    }
    const assigned = await this.get(domain.id);
    return assigned ? { kind: 'assigned', domain: assigned.domain } : { kind: 'not_found' };
  }

  /**
   * Returns a tenant's domain to the account: the owner fields leave the domain and its claim and the
   * membership goes, together; only while that tenant owns it. False when it does not (or is gone).
   */
  async releaseFromTenant(accountId: string, domain: Pick<Domain, 'id' | 'name'>, tenantId: string, now: string): Promise<boolean> {
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domain(domain.id),
            UpdateExpression: 'SET updated_at = :now REMOVE tenant_id, tenant',
            ConditionExpression: 'account_id = :account AND tenant_id = :tenant_id',
            ExpressionAttributeValues: { ':now': now, ':account': accountId, ':tenant_id': tenantId },
          },
        },
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domainName(domain.name),
            UpdateExpression: 'REMOVE tenant_id',
            ConditionExpression: 'domain_id = :domain',
            ExpressionAttributeValues: { ':domain': domain.id },
          },
        },
        { Delete: { TableName: this.table.name, Key: tenantDomainKey(tenantId, domain.id) } },
      ]);
      return true;
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return false;
      throw error;
    }
  }

  /** Drops a membership whose domain the tenant does not own (any more): keeps the clean-up finite. */
  async forgetMembership(tenantId: string, domainId: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: tenantDomainKey(tenantId, domainId) }));
  }

  private membershipItem(accountId: string, tenantId: string, domainId: string) {
    return { ...tenantDomainKey(tenantId, domainId), type: 'tenant_domain', account_id: accountId, domain_id: domainId };
  }

  /**
   * Records a check: the status, the records and, when the provider was asked, its verification; the
   * claim's copy of the status changes in the same transaction, and so does the domain's place in the due
   * index (in it while the provider is still verifying, out of it otherwise: providerRecheckWrite).
   * Conditional on receiving being as it was when the records were checked (`inbound_enabled`): a PATCH
   * turning it on or off meanwhile changed the records, so the check is refused (null) rather than undo
   * it. With `ifCheckedAt` (a provider-only re-check of the last DNS check), only while no other check was
   * recorded since.
   */
  async recordCheck(
    accountId: string,
    domainId: string,
    check: {
      status: DomainStatus;
      records: DnsRecord[];
      at: string;
      inbound_enabled: boolean;
      provider?: ProviderVerification;
      ifCheckedAt?: string;
      /** The DMARC report address the records were read with (its record's `rua=`): a PATCH changing it meanwhile refuses the check. */
      dmarc_reports_address?: string | null;
    },
  ): Promise<Domain | null> {
    const current = await this.get(domainId);
    if (!current || current.domain.account_id !== accountId) return null;
    const receiving = inboundWrite({ kind: 'keep', enabled: check.inbound_enabled });
    const provider = check.provider ? { set: ', provider = :provider', values: { ':provider': check.provider } } : { set: '', values: {} };
    const sameCheck = check.ifCheckedAt
      ? { conditions: ['last_checked_at = :checkedAt'], values: { ':checkedAt': check.ifCheckedAt } }
      : { conditions: [], values: {} };
    // The records carry the DMARC record with the report address of when they were read (shared/usecases/dmarc/report-settings.ts).
    const sameDmarc =
      check.dmarc_reports_address === undefined
        ? { conditions: [] as string[], values: {} }
        : check.dmarc_reports_address === null
          ? {
              conditions: ['(attribute_not_exists(dmarc_reports_address) OR attribute_type(dmarc_reports_address, :nullType))'],
              values: { ':nullType': 'NULL' },
            }
          : { conditions: ['dmarc_reports_address = :dmarcAddress'], values: { ':dmarcAddress': check.dmarc_reports_address } };
    const recheck = providerRecheckWrite(domainId, check.provider, check.at, this.bounds.providerRecheckMs);
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domain(domainId),
            UpdateExpression:
              'SET #status = :status, records = :records, last_checked_at = :at, updated_at = :at' +
              (check.status === 'verified' ? ', verified_at = if_not_exists(verified_at, :at)' : '') +
              provider.set +
              recheck.set +
              recheck.remove,
            ConditionExpression: ['account_id = :account', ...receiving.conditions, ...sameCheck.conditions, ...sameDmarc.conditions].join(
              ' AND ',
            ),
            ExpressionAttributeNames: { '#status': 'status', ...receiving.names },
            ExpressionAttributeValues: {
              ':status': check.status,
              ':records': check.records,
              ':at': check.at,
              ':account': accountId,
              ...receiving.values,
              ...provider.values,
              ...sameCheck.values,
              ...sameDmarc.values,
              ...recheck.values,
            },
          },
        },
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domainName(current.domain.name),
            UpdateExpression: 'SET #status = :status',
            ConditionExpression: 'domain_id = :domain',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': check.status, ':domain': domainId },
          },
        },
      ]);
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return null;
      throw error;
    }
    return (await this.get(domainId))?.domain ?? null;
  }

  /**
   * Moves the due time of a domain the provider is still verifying (the reconciler, after asking it),
   * only while the check it read is the last one recorded: false when another check was recorded since
   * (that write put the domain in the due index, or took it out, itself).
   */
  async postponeProviderRecheck(domainId: string, checkedAt: string, dueAtMs: number): Promise<boolean> {
    const due = setDue('DOMAIN', domainId, dueAtMs);
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression: `SET ${due.set}`,
      ConditionExpression: 'last_checked_at = :checkedAt',
      ExpressionAttributeValues: { ...due.values, ':checkedAt': checkedAt },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /**
   * Takes the domain out of the due index (the provider's window is over, or a write left it there), only
   * while the check it read (`checkedAt`, null: none yet) is the last one recorded.
   */
  async clearProviderRecheck(domainId: string, checkedAt: string | null): Promise<boolean> {
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      UpdateExpression: `REMOVE ${REMOVE_DUE}`,
      ConditionExpression:
        checkedAt === null ? 'attribute_exists(PK) AND attribute_not_exists(last_checked_at)' : 'last_checked_at = :checkedAt',
      ...(checkedAt === null ? {} : { ExpressionAttributeValues: { ':checkedAt': checkedAt } }),
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /**
   * Deletes the domain, its name claim, its tenant membership, its DMARC report address's pointer and one from the counter, together, only
   * while its owner is still the one read (`domain.tenant_id`): `changed` when it moved meanwhile.
   */
  async delete(
    accountId: string,
    domain: Pick<Domain, 'id' | 'name' | 'tenant_id' | 'dmarc_reports_address'>,
  ): Promise<DeleteDomainOutcome> {
    const tenantId = domain.tenant_id ?? null;
    try {
      await transactWrite(this.table, [
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.domain(domain.id),
            ConditionExpression: `account_id = :account AND ${tenantId ? 'tenant_id = :tenant_id' : 'attribute_not_exists(tenant_id)'}`,
            ExpressionAttributeValues: { ':account': accountId, ...(tenantId ? { ':tenant_id': tenantId } : {}) },
          },
        },
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.domainName(domain.name),
            ConditionExpression: 'domain_id = :domain',
            ExpressionAttributeValues: { ':domain': domain.id },
          },
        },
        freeSlotItem(this.table, accountId, 'DOMAINS'),
        ...(tenantId ? [{ Delete: { TableName: this.table.name, Key: tenantDomainKey(tenantId, domain.id) } }] : []),
        // Its DMARC report address's pointer (./dmarc-addresses.ts); the figures expire by their ttl.
        ...(domain.dmarc_reports_address
          ? [{ Delete: { TableName: this.table.name, Key: keys.dmarcReportAddress(domain.dmarc_reports_address, domain.id) } }]
          : []),
      ]);
      return 'deleted';
    } catch (error) {
      if (!cancelledConditionIndexes(error).length) throw error;
      const current = await this.get(domain.id);
      return current && current.domain.account_id === accountId ? 'changed' : 'not_found';
    }
  }
}

const DOMAIN_ID = /^dom_[0-9A-Z]{26}$/;

/** Receiving as it was read: a domain stored before inbound existed has no flag (off). */
const INBOUND_OFF = '(attribute_not_exists(#inbound) OR #inbound = :inbound_off)';

/** The parts of an UpdateItem that turn receiving on or off (or keep it), each conditional on the state planned from. */
function inboundWrite(change: InboundChange) {
  const names: Record<string, string> = { '#inbound': 'inbound_enabled' };
  switch (change.kind) {
    case 'keep':
      return {
        sets: [],
        removes: [],
        conditions: [change.enabled ? '#inbound = :inbound_on' : INBOUND_OFF],
        names,
        values: change.enabled ? { ':inbound_on': true } : { ':inbound_off': false },
      };
    case 'enable':
      // The flag being off means the records hold no MX record of ours (every write keeps them together).
      return {
        sets: ['#inbound = :inbound_on', '#subdomain = :subdomain', '#records = list_append(#records, :mx)'],
        removes: [],
        conditions: [INBOUND_OFF],
        names: { ...names, '#subdomain': 'inbound_subdomain', '#records': 'records' },
        values: { ':inbound_on': true, ':inbound_off': false, ':subdomain': change.subdomain, ':mx': [change.record] },
      };
    case 'disable': {
      const record = change.recordIndex === null ? null : `#records[${change.recordIndex}]`;
      return {
        sets: ['#inbound = :inbound_off', '#subdomain = :no_subdomain'],
        removes: record ? [record] : [],
        // The record removed by position is the MX record only while it is still at that position.
        conditions: ['#inbound = :inbound_on', ...(record ? [`${record}.#purpose = :mx_purpose`] : [])],
        names: { ...names, '#subdomain': 'inbound_subdomain', ...(record ? { '#records': 'records', '#purpose': 'purpose' } : {}) },
        values: { ':inbound_on': true, ':inbound_off': false, ':no_subdomain': null, ...(record ? { ':mx_purpose': 'inbound_mx' } : {}) },
      };
    }
  }
}
