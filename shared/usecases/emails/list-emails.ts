/**
 * GET /emails: the account's emails, newest first, one page at a time. `?tenant=` (external_id or id)
 * lists only that tenant's emails, and a key limited to a tenant only ever sees its tenant's: both read
 * the sparse tenant index (GSI3), so a tenant's page never scans the account's other emails.
 */
import { toPublicEmail } from '../../domain/emails/email';
import type { Page } from '../../adapters/store/cursor';
import type { EmailListingRepository } from '../../adapters/store/email-listing';
import type { PageRequest } from '../../adapters/store/paginate';
import type { TenantRepository } from '../../adapters/store/tenants';
import { withLiveTenants } from './email-view';
import type { Principal } from '../access/principal';
import { resolveTenant } from '../access/tenant-scope';

export interface ListEmailsInput extends PageRequest {
  tenant?: string;
}

export interface ListEmailsDeps {
  emailListing: Pick<EmailListingRepository, 'list' | 'listByTenant'>;
  tenants: Pick<TenantRepository, 'find' | 'existing'>;
}

export async function listEmails(
  deps: ListEmailsDeps,
  principal: Principal,
  input: ListEmailsInput,
): Promise<Page<ReturnType<typeof toPublicEmail>>> {
  // 403 tenants_not_enabled, 404, or 403 for a key limited to another tenant.
  const named = await resolveTenant(deps, principal, input.tenant);
  const tenantId = named?.id ?? principal.credential.tenant ?? null;
  const request = { limit: input.limit, cursor: input.cursor };
  const page = tenantId
    ? await deps.emailListing.listByTenant(tenantId, request)
    : await deps.emailListing.list(principal.account.id, request);
  // The named tenant was just read; a key's tenant exists while the key does (deleting it revokes them).
  const emails = await withLiveTenants(deps, page.items, tenantId ? [tenantId] : []);
  return { items: emails.map(toPublicEmail), next_cursor: page.next_cursor };
}
