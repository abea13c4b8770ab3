/**
 * Emails as shown at read time (GET /emails, GET /emails/{id}): `tenant` is the tenant's external_id,
 * or null once the tenant is deleted (spec, DELETE /tenants/{tenant}: its emails stay in history with
 * tenant null). One batch read of the distinct tenants of a page (their items, keyed by the account and
 * external_id the emails carry), and only when the page holds tenant emails whose tenant is not already
 * known to exist.
 */
import { withLiveTenant, type Email } from '../../domain/emails/email';
import type { TenantRepository } from '../../adapters/store/tenants';

export interface EmailViewDeps {
  tenants: Pick<TenantRepository, 'existing'>;
}

/** `known`: tenant ids known to exist (the tenant the request named or its key is limited to). */
export async function withLiveTenants<T extends Pick<Email, 'account_id' | 'tenant' | 'tenant_id'>>(
  deps: EmailViewDeps,
  emails: T[],
  known: readonly string[] = [],
): Promise<T[]> {
  const refs = new Map<string, { id: string; account_id: string; external_id: string }>();
  for (const email of emails) {
    if (email.tenant_id && email.tenant && !known.includes(email.tenant_id))
      refs.set(email.tenant_id, { id: email.tenant_id, account_id: email.account_id, external_id: email.tenant });
  }
  if (refs.size === 0) return emails;
  const existing = new Set([...known, ...(await deps.tenants.existing([...refs.values()])).keys()]);
  return emails.map((email) => withLiveTenant(email, existing));
}
