/**
 * The one ownership rule for reading or changing a stored resource: it belongs to the caller's account,
 * and, for a credential limited to a tenant, to that tenant. Anything else is "not found" (never 403:
 * whether another account's id exists is not the caller's business).
 */
import { NotFoundError } from '../domain/errors';
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
