/**
 * SMTP credentials repository: like API keys, two items written and deleted together (credential-pair.ts):
 * the listing item `ACCOUNT#<acc>` / `SMTPCRED#<id>` and the lookup item under the password's hash
 * (`keys.apiKeyHash`, `kind: 'smtp'`, scopes `emails:send`), which the relay's AUTH and the send core's one
 * BatchGetItem read exactly as they read an API key's.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SMTP_CREDENTIAL_SCOPES, smtpCredentialSchema, type SmtpCredential } from '../../domain/smtp-credentials/smtp-credential';
import type { ApiKeyLookup } from './api-keys';
import { deleteCredentialPair, putCredentialPair, tenantCredentialIds, type DeleteCredentialOutcome } from './credential-pair';
import type { Page } from './cursor';
import { decodeItem } from './decode';
import { keys } from './keys';
import { queryPage, type PageRequest } from './paginate';
import { isConditionFailure, type Table } from './table';
import type { TenantRef } from './tenant-condition';

function listingItem(credential: SmtpCredential, hash: string) {
  return { ...keys.smtpCredential(credential.account_id, credential.id), type: 'smtp_credential', ...credential, secret_hash: hash };
}

function lookupItem(credential: SmtpCredential, hash: string) {
  const lookup: ApiKeyLookup = {
    kind: 'smtp',
    key_id: credential.id,
    account_id: credential.account_id,
    scopes: SMTP_CREDENTIAL_SCOPES,
    tenant: credential.tenant,
    allowed_domains: credential.allowed_domains,
  };
  return { ...keys.apiKeyHash(hash), type: 'api_key_lookup', ...lookup };
}

/** The listing item without its `secret_hash` (dropped by the schema); `last_used_at` absent until the first AUTH reads as null. */
function toSmtpCredential(item: Record<string, unknown>): SmtpCredential {
  return decodeItem(smtpCredentialSchema, item, 'SmtpCredential');
}

export class SmtpCredentialRepository {
  constructor(private readonly table: Table) {}

  /** Both items; a credential limited to a tenant only while the tenant is live (`tenant_gone` otherwise). */
  create(credential: SmtpCredential, hash: string, tenant: TenantRef | null = null): Promise<'created' | 'tenant_gone'> {
    if ((tenant?.id ?? null) !== credential.tenant) throw new Error('credential.tenant must be the given tenant');
    return putCredentialPair(this.table, [listingItem(credential, hash), lookupItem(credential, hash)], tenant);
  }

  list(accountId: string, page: PageRequest): Promise<Page<SmtpCredential>> {
    const { PK, SKPrefix } = keys.smtpCredentialPrefix(accountId);
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
      toSmtpCredential,
      { sortKeyPrefix: SKPrefix },
    );
  }

  /** Revokes at once (both items); false when there is no such credential in this account. */
  /** Deletes the credential; `mayDelete` sees it first (`beyond_reach` when it refuses: the revoker's reach, docs/api.md). */
  delete(
    accountId: string,
    credentialId: string,
    mayDelete: (credential: SmtpCredential) => boolean = () => true,
  ): Promise<DeleteCredentialOutcome> {
    return deleteCredentialPair(this.table, keys.smtpCredential(accountId, credentialId), (listing) =>
      mayDelete(toSmtpCredential(listing)),
    );
  }

  /** Ids of the account's credentials limited to this tenant (its deletion revokes them). */
  tenantCredentialIds(accountId: string, tenantId: string): Promise<string[]> {
    return tenantCredentialIds(this.table, keys.smtpCredentialPrefix(accountId), tenantId);
  }

  /** Records a successful AUTH; a credential revoked meanwhile is left alone (no item is created). */
  async touchLastUsed(accountId: string, credentialId: string, at: string): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.smtpCredential(accountId, credentialId),
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
