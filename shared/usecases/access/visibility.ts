/**
 * The one ownership rule for reading or changing a stored resource: it belongs to the caller's account,
 * and, for a credential limited to a tenant, to that tenant. Anything else is "not found" (never 403:
 * whether another account's id exists is not the caller's business).
 *
 * `tenant` here is always the tenant ID (ten_...), as on the credential: records that show the tenant's
 * external_id publicly pass their owner through a mapper (emailOwner, domainOwner).
 */
import { NotFoundError } from '../../domain/errors';
import type { Principal } from './principal';

export interface Owned {
  account_id: string;
  tenant?: string | null;
}

export function isVisible(principal: Principal, record: Owned | null | undefined): record is Owned {
  if (!record || record.account_id !== principal.account.id) return false;
  const limitedTo = principal.credential.tenant;
  return limitedTo === null || limitedTo === undefined || (record.tenant ?? null) === limitedTo;
}

/** Returns the record when visible, else throws 404 naming the resource. */
export function assertVisible<T extends Owned>(principal: Principal, record: T | null | undefined, what: string, id: string): T {
  if (!isVisible(principal, record)) throw new NotFoundError(what, id);
  return record as T;
}

/** The tenant id a write or read must be limited to for this caller: its key's tenant, or null (the whole account). */
export function limitedTenantOf(principal: Principal): string | null {
  return principal.credential.tenant ?? null;
}

/**
 * The tenant a request acts for: the one it names, else, for a key limited to a tenant, that tenant
 * (a tenant's key never reaches the account-wide scope of domains or suppressions by leaving `tenant`
 * out). Undefined when the request acts for the whole account.
 */
export function tenantRefOf(principal: Principal, named: string | undefined | null): string | undefined {
  return named ?? limitedTenantOf(principal) ?? undefined;
}
