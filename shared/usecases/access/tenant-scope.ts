/**
 * The one tenant rule every request follows when it names a tenant (a send's `tenant`, a domain,
 * suppression, API key, test event or webhook filter, a /tenants path): 403 tenants_not_enabled on an
 * account without tenants; 404 when the account has no such tenant (a tenant being deleted included);
 * 403 forbidden when the caller's key is limited to another tenant.
 */
import { ForbiddenError, NotFoundError } from '../../domain/errors';
import type { Tenant } from '../../domain/tenants/tenant';
import type { StoredTenant, TenantRepository } from '../../adapters/store/tenants';
import type { Principal } from './principal';

export interface TenantScopeDeps {
  tenants: Pick<TenantRepository, 'find'>;
}

/** What named a tenant: a field of the request (`tenant`, a webhook's `tenants`) or a /tenants path. */
export type TenantNamedBy = { field: string } | 'path';

const ENABLE_TENANTS =
  'tenants come with the Scale and Dedicated plans, enabled by an operator (admin account update --id <account_id> --plan scale --tenants; docs/tenants.md)';

export function checkTenantsEnabled(principal: Principal, namedBy: TenantNamedBy = { field: 'tenant' }): void {
  if (principal.account.tenants_enabled) return;
  if (namedBy === 'path') {
    throw new ForbiddenError(
      'Tenants are not enabled for this account, so the /tenants endpoints are not available to it.',
      'tenants_not_enabled',
      {
        hint: `To use them: ${ENABLE_TENANTS}.`,
      },
    );
  }
  throw new ForbiddenError(`Tenants are not enabled for this account, so \`${namedBy.field}\` cannot name one.`, 'tenants_not_enabled', {
    details: { field: namedBy.field },
    hint: `Leave out \`${namedBy.field}\` to act for the whole account; to use tenants: ${ENABLE_TENANTS}.`,
  });
}

/**
 * Account-wide resources (webhooks, tenants, API keys, account settings) are not a tenant's business:
 * a key limited to a tenant gets 403 forbidden (spec, Authentication 3).
 */
export function requireAccountKey(principal: Principal, what: string): void {
  if (principal.credential.tenant === null || principal.credential.tenant === undefined) return;
  throw new ForbiddenError(`A key limited to a tenant cannot ${what}; use a key of the whole account.`, 'forbidden');
}

/** A key limited to one tenant may act only for that tenant. */
export function checkTenantAllowed(principal: Principal, tenant: Pick<Tenant, 'id' | 'external_id'>): void {
  const limitedTo = principal.credential.tenant;
  if (limitedTo === null || limitedTo === tenant.id) return;
  throw new ForbiddenError(`This API key is limited to another tenant and cannot act for ${tenant.external_id}.`, 'forbidden', {
    hint: 'Use a key of that tenant, or a key of the whole account.',
  });
}

/** The tenant `ref` names (external_id or id) as stored (with its ramp state), under the rule above. */
export async function resolveStoredTenant(
  deps: TenantScopeDeps,
  principal: Principal,
  ref: string,
  namedBy?: TenantNamedBy,
): Promise<StoredTenant> {
  checkTenantsEnabled(principal, namedBy);
  const stored = await deps.tenants.find(principal.account.id, ref);
  if (!stored || stored.deleting) throw new NotFoundError('Tenant', ref);
  checkTenantAllowed(principal, stored.tenant);
  return stored;
}

/** The tenant `ref` names (external_id or id), or null when none is named. */
export async function resolveTenant(
  deps: TenantScopeDeps,
  principal: Principal,
  ref: string | undefined | null,
  namedBy?: TenantNamedBy,
): Promise<Tenant | null> {
  if (ref === undefined || ref === null) return null;
  return (await resolveStoredTenant(deps, principal, ref, namedBy)).tenant;
}
