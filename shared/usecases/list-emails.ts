/** GET /emails: the account's emails, newest first, one page at a time. */
import { toPublicEmail } from '../domain/emails/email';
import type { Page } from '../store/cursor';
import type { EmailListingRepository } from '../store/email-listing';
import type { PageRequest } from '../store/paginate';
import type { Principal } from './principal';
// The one tenant check of every endpoint that names a tenant; the tenants feature replaces its body.
import { resolveTenant, type TenantScopeDeps } from './tenant-scope';

export interface ListEmailsInput extends PageRequest {
  tenant?: string;
}

export async function listEmails(
  deps: { emailListing: EmailListingRepository } & TenantScopeDeps,
  principal: Principal,
  input: ListEmailsInput,
): Promise<Page<ReturnType<typeof toPublicEmail>>> {
  // TODO(tenants, issue 10): filter by the tenant's emails.
  await resolveTenant(deps, principal, input.tenant);
  const page = await deps.emailListing.list(principal.account.id, { limit: input.limit, cursor: input.cursor });
  return { items: page.items.map(toPublicEmail), next_cursor: page.next_cursor };
}
