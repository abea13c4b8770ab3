/**
 * Emails as shown at read time (GET /emails, GET /emails/{id}): `tenant` is the tenant's external_id,
 * or null once the tenant is deleted (spec, DELETE /tenants/{tenant}: its emails stay in history with
 * tenant null). One batch read of the distinct tenant ids of a page, and only when the page holds
 * tenant emails whose tenant is not already known to exist.
 */
import { withLiveTenant, type Email } from '../domain/emails/email';
import type { TenantRepository } from '../store/tenants';

export interface EmailViewDeps {
  tenants: Pick<TenantRepository, 'existing'>;
}

/** `known`: tenant ids known to exist (the tenant the request named or its key is limited to). */
export async function withLiveTenants<T extends Pick<Email, 'tenant' | 'tenant_id'>>(deps: EmailViewDeps, emails: T[], known: readonly string[] = []): Promise<T[]> {
  const ids = [...new Set(emails.map((email) => email.tenant_id).filter((id): id is string => typeof id === 'string' && !known.includes(id)))];
  if (ids.length === 0) return emails;
  const existing = new Set([...known, ...(await deps.tenants.existing(ids)).keys()]);
  return emails.map((email) => withLiveTenant(email, existing));
}
