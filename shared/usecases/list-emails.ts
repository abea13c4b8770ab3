/** GET /emails: the account's emails, newest first, one page at a time. */
import { toPublicEmail } from '../domain/emails/email';
import type { Page } from '../store/cursor';
import type { EmailListingRepository } from '../store/email-listing';
import type { PageRequest } from '../store/paginate';
import type { Principal } from './principal';
// The one tenant check of every endpoint that names a tenant; the tenants feature replaces its body.
import { resolveTenant } from './tenant-scope';

export interface ListEmailsInput extends PageRequest {
  tenant?: string;
}

export async function listEmails(
  deps: { emailListing: EmailListingRepository },
  principal: Principal,
  input: ListEmailsInput,
): Promise<Page<ReturnType<typeof toPublicEmail>>> {
  // No tenant can exist yet (403 tenants_not_enabled or 404); when tenants arrive, filter by it here.
  await resolveTenant(principal, input.tenant);
  const page = await deps.emailListing.list(principal.account.id, { limit: input.limit, cursor: input.cursor });
  return { items: page.items.map(toPublicEmail), next_cursor: page.next_cursor };
}
