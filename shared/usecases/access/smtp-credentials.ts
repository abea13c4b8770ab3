/**
 * SMTP credential use cases: create (password shown once), list (never secrets), revoke (at once: the
 * relay re-checks the credential for every message). Limited to a tenant and to sending domains exactly
 * as API keys are, and made only within the creator's reach as keys are (grantWithinReach: the creator
 * must cover emails:send, and a creator limited to domains gives a subset of them). Credentials are an
 * account-wide resource: a key limited to a tenant can do none of this (403 forbidden, spec Authentication 3).
 */
import { grantWithinReach, reachCovers, revocationBeyondReach } from '../../domain/api-keys/reach';
import { hashSecret } from '../../domain/api-keys/secret';
import { NotFoundError } from '../../domain/errors';
import { isId, newId } from '../../domain/ids';
import { generateSmtpPassword } from '../../domain/smtp-credentials/secret';
import type { CreateSmtpCredentialInput } from '../../domain/smtp-credentials/schemas';
import { SMTP_CREDENTIAL_SCOPES, type SmtpCredential } from '../../domain/smtp-credentials/smtp-credential';
import type { Tenant } from '../../domain/tenants/tenant';
import type { Clock } from '../../ports/clock';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { SmtpCredentialRepository } from '../../adapters/store/smtp-credentials';
import type { Principal } from './principal';
import { requireAccountKey, resolveTenant, type TenantScopeDeps } from './tenant-scope';

export interface SmtpCredentialDeps {
  smtpCredentials: Pick<SmtpCredentialRepository, 'create' | 'list' | 'delete'>;
  tenants: TenantScopeDeps['tenants'];
  clock: Clock;
}

export async function createSmtpCredential(
  deps: SmtpCredentialDeps,
  principal: Principal,
  input: CreateSmtpCredentialInput,
): Promise<{ credential: SmtpCredential; password: string }> {
  requireAccountKey(principal, 'create SMTP credentials');
  // 403 insufficient_scope or domain_not_allowed: never more than the creator may do.
  const granted = grantWithinReach(principal.credential, { scopes: SMTP_CREDENTIAL_SCOPES, allowed_domains: input.allowed_domains });
  // 403 tenants_not_enabled or 404: the one tenant rule every request follows.
  const tenant = await resolveTenant(deps, principal, input.tenant);
  const password = generateSmtpPassword();
  const credential: SmtpCredential = {
    id: newId('smtp'),
    account_id: principal.account.id,
    name: input.name,
    tenant: tenant?.id ?? null,
    ...(tenant ? { tenant_external_id: tenant.external_id } : {}),
    allowed_domains: granted.allowed_domains,
    created_at: deps.clock.now().toISOString(),
    last_used_at: null,
  };
  if ((await deps.smtpCredentials.create(credential, hashSecret(password), tenant)) === 'tenant_gone')
    throw new NotFoundError('Tenant', tenant!.external_id);
  return { credential, password };
}

export function listSmtpCredentials(deps: SmtpCredentialDeps, principal: Principal, page: PageRequest): Promise<Page<SmtpCredential>> {
  requireAccountKey(principal, 'list SMTP credentials');
  return deps.smtpCredentials.list(principal.account.id, page);
}

export async function revokeSmtpCredential(deps: SmtpCredentialDeps, principal: Principal, credentialId: string): Promise<void> {
  requireAccountKey(principal, 'revoke SMTP credentials');
  // Not one of our ids (too long for a key, say): unknown, without a read.
  if (!isId('smtp', credentialId)) throw new NotFoundError('SMTP credential', credentialId);
  // 403 for one that reaches further than the caller (its domains: a credential's scopes are emails:send).
  let target: SmtpCredential | undefined;
  const reach = (credential: SmtpCredential) => ({ scopes: SMTP_CREDENTIAL_SCOPES, allowed_domains: credential.allowed_domains });
  const outcome = await deps.smtpCredentials.delete(principal.account.id, credentialId, (credential) => {
    target = credential;
    return reachCovers(principal.credential, reach(credential));
  });
  if (outcome === 'not_found') throw new NotFoundError('SMTP credential', credentialId);
  if (outcome === 'beyond_reach') throw revocationBeyondReach('SMTP credential', credentialId, principal.credential, reach(target!));
}

/** A tenant's deletion: revokes every credential limited to it. Idempotent: one already gone is skipped. */
export async function revokeTenantSmtpCredentials(
  deps: { smtpCredentials: Pick<SmtpCredentialRepository, 'tenantCredentialIds' | 'delete'> },
  tenant: Pick<Tenant, 'id' | 'account_id'>,
): Promise<number> {
  const ids = await deps.smtpCredentials.tenantCredentialIds(tenant.account_id, tenant.id);
  for (const id of ids) await deps.smtpCredentials.delete(tenant.account_id, id);
  return ids.length;
}
