/**
 * Resolving a `tenant` named on a request. Until the tenants feature exists no tenant can exist, so
 * every named tenant is 404 on accounts with tenants enabled, and 403 tenants_not_enabled elsewhere.
 * The tenants feature replaces the body of this function.
 */
import { ForbiddenError, NotFoundError } from '../domain/errors';
import type { Principal } from './principal';

export async function resolveTenant(principal: Principal, tenant: string | undefined): Promise<null> {
  if (tenant === undefined) return null;
  if (!principal.account.tenants_enabled) {
    throw new ForbiddenError('Tenants are not enabled for this account.', 'tenants_not_enabled', {
      hint: 'Remove the tenant field, or ask for tenants to be enabled on your plan.',
    });
  }
  throw new NotFoundError('Tenant', tenant);
}
