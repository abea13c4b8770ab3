/**
 * API key use cases: create (secret shown once), list (never secrets), revoke. Keys are an account-wide
 * resource: a key limited to a tenant can do none of this (403 forbidden, spec Authentication 3). A new
 * key is made only within its creator's reach (scopes and sending domains: grantWithinReach), whichever
 * door asks: the API, the dashboard's form (the session's role scopes), the CLI and MCP (through the API).
 */
import type { ApiKey } from '../../domain/api-keys/api-key';
import type { CreateApiKeyInput } from '../../domain/api-keys/schemas';
import { grantWithinReach, reachCovers, revocationBeyondReach } from '../../domain/api-keys/reach';
import { generateApiKeySecret, hashSecret, secretHint } from '../../domain/api-keys/secret';
import { NotFoundError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Clock } from '../../ports/clock';
import type { ApiKeyRepository } from '../../adapters/store/api-keys';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { Principal } from './principal';
import type { Tenant } from '../../domain/tenants/tenant';
import { requireAccountKey, resolveTenant, type TenantScopeDeps } from './tenant-scope';

export interface ApiKeyDeps {
  apiKeys: ApiKeyRepository;
  tenants: TenantScopeDeps['tenants'];
  clock: Clock;
}

export async function createApiKey(
  deps: ApiKeyDeps,
  principal: Principal,
  input: CreateApiKeyInput,
): Promise<{ apiKey: ApiKey; secret: string }> {
  requireAccountKey(principal, 'create API keys');
  // 403 insufficient_scope or domain_not_allowed: never more than the creator may do.
  const granted = grantWithinReach(principal.credential, input);
  // 403 tenants_not_enabled or 404: the one tenant rule every request follows.
  const tenant = await resolveTenant(deps, principal, input.tenant);
  const secret = generateApiKeySecret();
  const apiKey: ApiKey = {
    id: newId('key'),
    account_id: principal.account.id,
    name: input.name,
    scopes: granted.scopes,
    tenant: tenant?.id ?? null,
    ...(tenant ? { tenant_external_id: tenant.external_id } : {}),
    allowed_domains: granted.allowed_domains,
    hint: secretHint(secret),
    created_at: deps.clock.now().toISOString(),
  };
  if ((await deps.apiKeys.create(apiKey, hashSecret(secret), tenant)) === 'tenant_gone')
    throw new NotFoundError('Tenant', tenant!.external_id);
  return { apiKey, secret };
}

export function listApiKeys(deps: ApiKeyDeps, principal: Principal, page: PageRequest): Promise<Page<ApiKey>> {
  requireAccountKey(principal, 'list API keys');
  return deps.apiKeys.list(principal.account.id, page);
}

/** Revokes a key whose reach the caller's covers (403 otherwise: a developer cannot revoke an owner's full key). */
export async function revokeApiKey(deps: ApiKeyDeps, principal: Principal, keyId: string): Promise<void> {
  requireAccountKey(principal, 'revoke API keys');
  let target: ApiKey | undefined;
  const outcome = await deps.apiKeys.delete(principal.account.id, keyId, (key) => {
    target = key;
    return reachCovers(principal.credential, key);
  });
  if (outcome === 'not_found') throw new NotFoundError('API key', keyId);
  if (outcome === 'beyond_reach') throw revocationBeyondReach('API key', keyId, principal.credential, target!);
}

/**
 * A tenant's deletion: revokes every key limited to it (both items of each, together), so they stop
 * working at once. Idempotent: a key already gone is skipped.
 */
export async function revokeTenantKeys(
  deps: { apiKeys: Pick<ApiKeyRepository, 'tenantKeyIds' | 'delete'> },
  tenant: Pick<Tenant, 'id' | 'account_id'>,
): Promise<number> {
  const ids = await deps.apiKeys.tenantKeyIds(tenant.account_id, tenant.id);
  // The tenant's deletion revokes them all, whoever made them.
  for (const id of ids) await deps.apiKeys.delete(tenant.account_id, id);
  return ids.length;
}
