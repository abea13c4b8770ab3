/**
 * Stored DNS host credentials (DNS apply, docs/domains.md): one item per account and host, PK
 * `ACCOUNT#<acc>`, SK `DNSPROVIDER#<route53|cloudflare>`. The credentials are one JSON string sealed by the
 * SecretBox (context `{purpose: 'dns_provider', account_id, provider}`, sealed and opened by the use
 * case); the item also keeps a hint that names them without revealing them (`AKIA…WXYZ`, `…abcd`).
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DnsHostName } from '../../domain/domains/dns-apply';
import { keys } from './keys';
import { queryAllWithPrefix, type Table } from './table';

export interface StoredDnsProvider {
  provider: DnsHostName;
  sealed_credentials: string;
  hint: string;
  created_at: string;
  updated_at: string;
}

function toStored(item: Record<string, unknown>): StoredDnsProvider {
  return {
    provider: item.provider as DnsHostName,
    sealed_credentials: item.sealed_credentials as string,
    hint: item.hint as string,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}

export class DnsProviderRepository {
  constructor(private readonly table: Table) {}

  /** Stores (or replaces) the account's credentials for `provider`; `created_at` stays the first one's. */
  async put(accountId: string, provider: DnsHostName, sealed: string, hint: string, now: string): Promise<StoredDnsProvider> {
    const result = await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.dnsProvider(accountId, provider),
        UpdateExpression:
          'SET #type = :type, account_id = :acc, provider = :provider, sealed_credentials = :sealed, hint = :hint, updated_at = :now, created_at = if_not_exists(created_at, :now)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'dns_provider',
          ':acc': accountId,
          ':provider': provider,
          ':sealed': sealed,
          ':hint': hint,
          ':now': now,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toStored(result.Attributes ?? {});
  }

  async get(accountId: string, provider: DnsHostName): Promise<StoredDnsProvider | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.dnsProvider(accountId, provider), ConsistentRead: true }),
    );
    return result.Item ? toStored(result.Item) : null;
  }

  /** Every host the account stored credentials for (at most one item per host). */
  list(accountId: string): Promise<StoredDnsProvider[]> {
    return queryAllWithPrefix(this.table, keys.dnsProviderPrefix(accountId), toStored);
  }

  /** False when there was nothing to delete. */
  async delete(accountId: string, provider: DnsHostName): Promise<boolean> {
    const result = await this.table.client.send(
      new DeleteCommand({ TableName: this.table.name, Key: keys.dnsProvider(accountId, provider), ReturnValues: 'ALL_OLD' }),
    );
    return Boolean(result.Attributes);
  }
}
