/**
 * Adding, finding, listing and deleting domains. A domain name has one owner: a claim item keyed by the
 * name is written with `attribute_not_exists` in the same transaction as the domain and the account's
 * domain counter (conditional ADD against the plan's limit), so concurrent adds can neither create two
 * owners nor exceed the limit. Delete takes all of it away together.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Domain } from '#shared/domain/domains/domain';
import { freeSlotItem, takeSlotItem } from '../counters';
import type { Page } from '../cursor';
import { keys } from '../keys';
import { queryGsi1NewestFirst, type PageRequest } from '../paginate';
import { cancelledConditionIndexes, transactWrite, withoutNullFields, type Table, type TransactItem } from '../table';
import { tenantIsLiveCheck, type TenantRef } from '../tenant-condition';
import { LATE_FIELDS, membershipItem, readStoredDomain, toDomain, type StoredDomain } from './stored-domain';

export type CreateDomainOutcome =
  | { ok: true }
  | { ok: false; reason: 'claimed'; ownerAccountId: string; ownerDomainId: string }
  | { ok: false; reason: 'limit' }
  | { ok: false; reason: 'tenant_gone' };

export type DeleteDomainOutcome = 'deleted' | 'changed' | 'not_found';

const DOMAIN_ID = /^dom_[0-9A-Z]{26}$/;

export class DomainCrud {
  constructor(private readonly table: Table) {}

  /** Adds the domain (owned by `tenant` when given: `domain.tenant_id` must be its id). */
  async create(domain: Domain, sealedPrivateKey: string, limit: number, tenant: TenantRef | null = null): Promise<CreateDomainOutcome> {
    if ((tenant?.id ?? null) !== (domain.tenant_id ?? null)) throw new Error('domain.tenant_id must be the given tenant');
    try {
      await transactWrite(this.table, this.createItems(domain, sealedPrivateKey, limit, tenant));
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

  /** The creating transaction: the name claim (0), the domain (1), a slot of the counter (2), and for a tenant's its membership (3) and live check (4). */
  private createItems(domain: Domain, sealedPrivateKey: string, limit: number, tenant: TenantRef | null): TransactItem[] {
    const claim = {
      ...keys.domainName(domain.name),
      type: 'domain_name',
      account_id: domain.account_id,
      domain_id: domain.id,
      status: domain.status,
      ...(tenant ? { tenant_id: tenant.id } : {}),
    };
    const item = {
      ...keys.domain(domain.id),
      GSI1PK: keys.domainsByAccount(domain.account_id),
      GSI1SK: domain.id,
      type: 'domain',
      ...withoutNullFields(domain, LATE_FIELDS),
      dkim_private_key_sealed: sealedPrivateKey,
    };
    const absent = 'attribute_not_exists(PK)';
    return [
      { Put: { TableName: this.table.name, Item: claim, ConditionExpression: absent } },
      { Put: { TableName: this.table.name, Item: item, ConditionExpression: absent } },
      takeSlotItem(this.table, domain.account_id, 'DOMAINS', limit),
      ...(tenant
        ? [
            {
              Put: {
                TableName: this.table.name,
                Item: membershipItem(domain.account_id, tenant.id, domain.id),
                ConditionExpression: absent,
              },
            },
            tenantIsLiveCheck(this.table, tenant),
          ]
        : []),
    ];
  }

  async claimOf(name: string): Promise<{ account_id: string; domain_id: string } | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.domainName(name), ConsistentRead: true }),
    );
    return result.Item ? { account_id: result.Item.account_id, domain_id: result.Item.domain_id } : null;
  }

  get(domainId: string): Promise<StoredDomain | null> {
    return readStoredDomain(this.table, domainId);
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
        ...(tenantId ? [{ Delete: { TableName: this.table.name, Key: keys.tenantDomain(tenantId, domain.id) } }] : []),
        // Its DMARC report address's pointer (../dmarc-addresses.ts); the figures expire by their ttl.
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
