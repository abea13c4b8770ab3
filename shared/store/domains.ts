/**
 * Domains repository. A domain name has one owner: a claim item keyed by the name is written with
 * `attribute_not_exists` in the same transaction as the domain and the account's domain counter
 * (conditional ADD against the plan's limit), so concurrent adds can neither create two owners nor
 * exceed the limit.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DnsRecord, Domain, DomainStatus, TlsMode } from '../domain/domains/domain';
import { freeSlotItem, takeSlotItem } from './counters';
import { keys } from './keys';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import type { Page } from './cursor';
import { cancelledConditionIndexes, setChanges, transactWrite, updateIfCondition, withNullFields, withoutKeys, withoutNullFields, type Table } from './table';

export interface StoredDomain {
  domain: Domain;
  /** The DKIM private key, sealed by the secret box. */
  sealedPrivateKey: string;
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

/** The claim item as read: its owner, and the send-time fields (absent on claims written before they existed). */
export function toSenderDomain(item: Record<string, any>): SenderDomain | { id: string; account_id: string; status: undefined; tenant_id: string | null } {
  return { id: item.domain_id, account_id: item.account_id, status: item.status, tenant_id: item.tenant_id ?? null };
}

export type CreateDomainOutcome = { ok: true } | { ok: false; reason: 'claimed'; ownerAccountId: string; ownerDomainId: string } | { ok: false; reason: 'limit' };

/** Set by later writes with if_not_exists, so absent (not NULL) until then. */
const LATE_FIELDS = ['verified_at', 'last_checked_at'] as const;

function toStoredDomain(item: Record<string, any>): StoredDomain {
  const { dkim_private_key_sealed, type, ...rest } = withoutKeys(item);
  const domain = withNullFields(rest, LATE_FIELDS) as unknown as Domain;
  return { domain, sealedPrivateKey: dkim_private_key_sealed };
}


export class DomainRepository {
  constructor(private readonly table: Table) {}

  async create(domain: Domain, sealedPrivateKey: string, limit: number): Promise<CreateDomainOutcome> {
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.domainName(domain.name), type: 'domain_name', account_id: domain.account_id, domain_id: domain.id, status: domain.status },
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
      ]);
      return { ok: true };
    } catch (error) {
      const failed = cancelledConditionIndexes(error);
      if (failed.includes(0)) {
        const claim = await this.claimOf(domain.name);
        return { ok: false, reason: 'claimed', ownerAccountId: claim?.account_id ?? '', ownerDomainId: claim?.domain_id ?? '' };
      }
      if (failed.includes(2)) return { ok: false, reason: 'limit' };
      throw error;
    }
  }

  async claimOf(name: string): Promise<{ account_id: string; domain_id: string } | null> {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.domainName(name), ConsistentRead: true }));
    return result.Item ? { account_id: result.Item.account_id, domain_id: result.Item.domain_id } : null;
  }

  async get(domainId: string): Promise<StoredDomain | null> {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.domain(domainId), ConsistentRead: true }));
    return result.Item ? toStoredDomain(result.Item) : null;
  }

  /** The domain of that name owned by that account, or null. */
  async findOwned(accountId: string, name: string): Promise<StoredDomain | null> {
    const claim = await this.claimOf(name);
    if (!claim || claim.account_id !== accountId) return null;
    const stored = await this.get(claim.domain_id);
    return stored && stored.domain.account_id === accountId ? stored : null;
  }

  list(accountId: string, page: PageRequest): Promise<Page<Domain>> {
    return queryGsi1NewestFirst(this.table, keys.domainsByAccount(accountId), page, (item) => toStoredDomain(item).domain);
  }

  async updateSettings(accountId: string, domainId: string, changes: { open_tracking?: boolean; click_tracking?: boolean; tls_mode?: TlsMode }, now: string): Promise<Domain | null> {
    const update = setChanges(changes, now);
    const item = await updateIfCondition(this.table, {
      Key: keys.domain(domainId),
      ...update,
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':account': accountId },
      ConditionExpression: 'account_id = :account',
    });
    return item ? toStoredDomain(item).domain : null;
  }

  /** Records a verification; the claim's copy of the status changes in the same transaction. */
  async recordCheck(accountId: string, domainId: string, check: { status: DomainStatus; records: DnsRecord[]; at: string }): Promise<Domain | null> {
    const current = await this.get(domainId);
    if (!current || current.domain.account_id !== accountId) return null;
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.domain(domainId),
            UpdateExpression:
              'SET #status = :status, records = :records, last_checked_at = :at, updated_at = :at' +
              (check.status === 'verified' ? ', verified_at = if_not_exists(verified_at, :at)' : ''),
            ConditionExpression: 'account_id = :account',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': check.status, ':records': check.records, ':at': check.at, ':account': accountId },
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

  /** Deletes the domain, its name claim and one from the counter, together. False when not found. */
  async delete(accountId: string, domain: Domain): Promise<boolean> {
    try {
      await transactWrite(this.table, [
        { Delete: { TableName: this.table.name, Key: keys.domain(domain.id), ConditionExpression: 'account_id = :account', ExpressionAttributeValues: { ':account': accountId } } },
        {
          Delete: {
            TableName: this.table.name,
            Key: keys.domainName(domain.name),
            ConditionExpression: 'domain_id = :domain',
            ExpressionAttributeValues: { ':domain': domain.id },
          },
        },
        freeSlotItem(this.table, accountId, 'DOMAINS'),
      ]);
      return true;
    } catch (error) {
      if (cancelledConditionIndexes(error).length) return false;
      throw error;
    }
  }
}
