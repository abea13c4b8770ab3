/**
 * A domain's tenant. A domain belongs to the whole account or to one of its tenants. The owning tenant is
 * written in ONE transaction on three items whenever it changes: the domain (`tenant_id`, `tenant` =
 * external_id), its name claim (`tenant_id`, read by the send path) and a membership item under the tenant
 * (listing the tenant's domains and returning them on the tenant's deletion, read strongly consistently).
 * Giving a domain to a tenant is conditional on the domain having no tenant (two tenants racing: one wins)
 * and on the tenant being live (../tenant-condition.ts: nothing is attached to a tenant being deleted).
 */
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Domain } from '#shared/domain/domains/domain';
import { batchGetItems } from '../batch-get';
import type { Page } from '../cursor';
import { keys } from '../keys';
import { queryPage, type PageRequest } from '../paginate';
import { cancelledConditionIndexes, transactWrite, type Table } from '../table';
import { tenantIsLiveCheck, type TenantRef } from '../tenant-condition';
import { membershipItem, readStoredDomain, toDomain } from './stored-domain';

export type AssignDomainOutcome =
  | { kind: 'assigned'; domain: Domain }
  | { kind: 'already'; domain: Domain }
  | { kind: 'other_tenant'; domain: Domain }
  | { kind: 'not_found' }
  | { kind: 'tenant_gone' };

export class DomainTenants {
  constructor(private readonly table: Table) {}

  /** One tenant's domains, newest first (the membership partition, then the domains in one batch). */
  async listForTenant(tenantId: string, page: PageRequest): Promise<Page<Domain>> {
    const PK = keys.tenantDomains(tenantId);
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
        ExpressionAttributeValues: { ':pk': keys.tenantDomains(tenantId) },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => item.SK as string);
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
            Item: membershipItem(accountId, tenant.id, domain.id),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        tenantIsLiveCheck(this.table, tenant),
      ]);
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.length === 0) throw error;
      return this.refusedAssignment(accountId, domain.id, tenant, failed);
    }
    const assigned = await readStoredDomain(this.table, domain.id);
    return assigned ? { kind: 'assigned', domain: assigned.domain } : { kind: 'not_found' };
  }

  /** Why an assignment was refused, from the domain as it is now and the conditions that failed. */
  private async refusedAssignment(accountId: string, domainId: string, tenant: TenantRef, failed: number[]): Promise<AssignDomainOutcome> {
    const current = await readStoredDomain(this.table, domainId);
    if (!current || current.domain.account_id !== accountId) return { kind: 'not_found' };
    if (current.domain.tenant_id === tenant.id) return { kind: 'already', domain: current.domain };
    if (current.domain.tenant_id) return { kind: 'other_tenant', domain: current.domain };
    if (failed.includes(3)) return { kind: 'tenant_gone' };
    return { kind: 'not_found' };
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
        { Delete: { TableName: this.table.name, Key: keys.tenantDomain(tenantId, domain.id) } },
      ]);
      return true;
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return false;
      throw error;
    }
  }

  /** Drops a membership whose domain the tenant does not own (any more): keeps the clean-up finite. */
  async forgetMembership(tenantId: string, domainId: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.tenantDomain(tenantId, domainId) }));
  }
}
