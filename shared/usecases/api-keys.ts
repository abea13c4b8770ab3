/** API key use cases: create (secret shown once), list (never secrets), revoke. */
import type { ApiKey } from '../domain/api-keys/api-key';
import type { CreateApiKeyInput } from '../domain/api-keys/schemas';
import { generateApiKeySecret, hashSecret, secretHint } from '../domain/api-keys/secret';
import { NotFoundError } from '../domain/errors';
import { newId } from '../domain/ids';
import type { Clock } from '../ports';
import type { ApiKeyRepository } from '../store/api-keys';
import type { Page } from '../store/cursor';
import type { PageRequest } from '../store/paginate';
import type { Principal } from './principal';
import { resolveTenant, type TenantScopeDeps } from './tenant-scope';

export interface ApiKeyDeps {
  apiKeys: ApiKeyRepository;
  tenants: TenantScopeDeps['tenants'];
  clock: Clock;
}

export async function createApiKey(deps: ApiKeyDeps, principal: Principal, input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; secret: string }> {
  // 403 tenants_not_enabled, 404, or 403 for a key of another tenant: the one tenant rule every request follows.
  const tenant = (await resolveTenant(deps, principal, input.tenant))?.id ?? null;
  const secret = generateApiKeySecret();
  const apiKey: ApiKey = {
    id: newId('key'),
    account_id: principal.account.id,
    name: input.name,
    scopes: input.scopes,
    tenant,
    allowed_domains: input.allowed_domains ?? null,
    hint: secretHint(secret),
    created_at: deps.clock.now().toISOString(),
  };
  await deps.apiKeys.create(apiKey, hashSecret(secret));
  return { apiKey, secret };
}

export function listApiKeys(deps: ApiKeyDeps, principal: Principal, page: PageRequest): Promise<Page<ApiKey>> {
  return deps.apiKeys.list(principal.account.id, page);
}

export async function revokeApiKey(deps: ApiKeyDeps, principal: Principal, keyId: string): Promise<void> {
  const deleted = await deps.apiKeys.delete(principal.account.id, keyId);
  if (!deleted) throw new NotFoundError('API key', keyId);
}
