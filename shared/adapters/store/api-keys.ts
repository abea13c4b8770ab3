/**
 * API keys repository. Two items per key, written and deleted together in one transaction: the listing
 * item under the account, and the lookup item keyed by the secret's hash (what authentication reads).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { apiKeySchema, type ApiKey } from '../../domain/api-keys/api-key';
import { modelSchema } from '../../domain/model-schema';
import type { Account } from '../../domain/accounts/account';
import { getWithAccount } from './accounts';
import { decodeItem } from './decode';
import { keys } from './keys';
import { queryPage, type PageRequest } from './paginate';
import type { Page } from './cursor';
import type { Table } from './table';
import type { TenantRef } from './tenant-condition';
import { deleteCredentialPair, putCredentialPair, tenantCredentialIds, type DeleteCredentialOutcome } from './credential-pair';

export type CreateApiKeyOutcome = 'created' | 'tenant_gone';

export interface ApiKeyLookup {
  /** Which door's secret this is: an API key (`svc_`) or an SMTP credential (`svcsmtp_`, shared/adapters/store/smtp-credentials.ts). */
  kind: 'api_key' | 'smtp';
  key_id: string;
  account_id: string;
  scopes: string[];
  tenant: string | null;
  allowed_domains: string[] | null;
  /**
   * The key's name (names never change), for the audit log's record of what the key changed: in the lookup
   * items of API keys made since 2026-11-28; absent in older ones and in SMTP credentials' (the audit log then
   * reads it from the listing item).
   */
  name?: string;
}

function listingItem(key: ApiKey, hash: string) {
  return { ...keys.apiKey(key.account_id, key.id), type: 'api_key', ...key, secret_hash: hash };
}

function lookupItem(key: ApiKey, hash: string) {
  const lookup: ApiKeyLookup = {
    kind: 'api_key',
    key_id: key.id,
    account_id: key.account_id,
    scopes: key.scopes,
    tenant: key.tenant,
    allowed_domains: key.allowed_domains,
    name: key.name,
  };
  return { ...keys.apiKeyHash(hash), type: 'api_key_lookup', ...lookup };
}

/**
 * A lookup item in today's layout, whatever its age (reads go through here).
 * Items written before 582d49f (2026-11-23, SMTP credentials) have no `kind`: they are API keys.
 */
function upgradeLookupItem<T extends Record<string, unknown>>(item: T): T {
  return item.kind === undefined ? { ...item, kind: 'api_key' } : item;
}

/** The lookup item as its upgrade leaves it; `tenant` and `allowed_domains` absent read as null. */
const apiKeyLookupSchema = modelSchema<ApiKeyLookup>()(
  z.object({
    kind: z.enum(['api_key', 'smtp']),
    key_id: z.string(),
    account_id: z.string(),
    scopes: z.array(z.string()),
    tenant: z.string().nullable().default(null),
    allowed_domains: z.array(z.string()).nullable().default(null),
    name: z.string().optional(),
  }),
);

/** The lookup item as read (the send path reads it in its own batch). */
export function toApiKeyLookup(stored: Record<string, unknown>): ApiKeyLookup {
  return decodeItem(apiKeyLookupSchema, upgradeLookupItem(stored), 'ApiKeyLookup');
}

/** The listing item without its `secret_hash` (dropped by the schema). */
function toApiKey(item: Record<string, unknown>): ApiKey {
  return decodeItem(apiKeySchema, item, 'ApiKey');
}

export class ApiKeyRepository {
  constructor(private readonly table: Table) {}

  /** Items for a new key, for callers that write them inside a larger transaction. */
  itemsFor(key: ApiKey, hash: string): Record<string, unknown>[] {
    return [listingItem(key, hash), lookupItem(key, hash)];
  }

  /**
   * Writes both items; a key limited to a tenant only while the tenant is live (tenant-condition.ts), so
   * a key can never outlive its tenant's deletion: the deletion revokes every key it can see.
   */
  async create(key: ApiKey, hash: string, tenant: TenantRef | null = null): Promise<CreateApiKeyOutcome> {
    if ((tenant?.id ?? null) !== key.tenant) throw new Error('key.tenant must be the given tenant');
    const [listing, lookup] = this.itemsFor(key, hash);
    return putCredentialPair(this.table, [listing!, lookup!], tenant);
  }

  /** Ids of the account's keys limited to this tenant. */
  tenantKeyIds(accountId: string, tenantId: string): Promise<string[]> {
    return tenantCredentialIds(this.table, keys.apiKeyPrefix(accountId), tenantId);
  }

  async findByHash(hash: string): Promise<ApiKeyLookup | null> {
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKeyHash(hash), ConsistentRead: true }),
    );
    return result.Item ? toApiKeyLookup(result.Item) : null;
  }

  /** The key (by hash) and the account it should belong to, in one strongly consistent round trip. */
  async findWithAccount(hash: string, accountId: string): Promise<{ key: ApiKeyLookup | null; account: Account | null }> {
    const { item, account } = await getWithAccount(this.table, keys.apiKeyHash(hash), accountId);
    return { key: item ? toApiKeyLookup(item) : null, account };
  }

  list(accountId: string, page: PageRequest): Promise<Page<ApiKey>> {
    const { PK, SKPrefix } = keys.apiKeyPrefix(accountId);
    return queryPage(
      this.table,
      {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
        ScanIndexForward: false,
      },
      page,
      { PK },
      (item) => ({ PK: item.PK, SK: item.SK }),
      toApiKey,
      { sortKeyPrefix: SKPrefix },
    );
  }

  /** Deletes both items at once; returns false when the key does not exist (in this account). */
  /** Deletes the key; `mayDelete` sees it first (`beyond_reach` when it refuses: the revoker's reach, docs/api.md). */
  delete(accountId: string, keyId: string, mayDelete: (key: ApiKey) => boolean = () => true): Promise<DeleteCredentialOutcome> {
    return deleteCredentialPair(this.table, keys.apiKey(accountId, keyId), (listing) => mayDelete(toApiKey(listing)));
  }
}
