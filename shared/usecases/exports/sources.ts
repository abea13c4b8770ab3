/**
 * Where each kind's records come from: the repositories' own list methods (never a table scan), a page
 * at a time from a position, and each record as the API answers it (GET /emails/{id}, GET /domains/{id},
 * GET /webhooks/{id} without its secret, GET /suppressions, GET /templates/{alias}, GET /automations/{id},
 * GET /received-emails). Records the account's retention expired are not listed by those methods (their
 * reads check the ttl), so an export holds what the API still shows.
 */
import { toPublicAutomation } from '../../domain/automations/automation';
import { toPublicDomain } from '../../domain/domains/domain';
import { toPublicEmail } from '../../domain/emails/email';
import { emailEvents } from '../../domain/exports/email-events';
import type { ExportKind, ListPosition } from '../../domain/exports/export';
import type { SuppressionCsvRow } from '../../domain/exports/formats';
import { toPublicReceivedEmail } from '../../domain/inbound/received-email';
import { toPublicSuppression } from '../../domain/suppressions/model';
import { toPublicTemplate } from '../../domain/templates/template';
import { toPublicWebhook } from '../../domain/webhooks/endpoint';
import type { Page } from '../../adapters/store/cursor';
import { withLiveTenants } from '../emails/email-view';
import type { ExportSources } from './deps';

export interface SourcePage {
  records: unknown[];
  /** The same records as CSV rows (suppressions only). */
  csv?: SuppressionCsvRow[];
  /** Where the next page starts; null: the kind is done. */
  next: ListPosition | null;
}

export type Source = (deps: ExportSources, accountId: string, position: ListPosition | null, limit: number) => Promise<SourcePage>;

const pageRequest = (position: ListPosition | null, limit: number) => ({ limit, ...(position?.cursor ? { cursor: position.cursor } : {}) });
const nextOf = (page: Page<unknown>): ListPosition | null => (page.next_cursor ? { cursor: page.next_cursor } : null);

/** A kind read from one list method, each item mapped to its public record. */
function simple<T>(
  list: (deps: ExportSources, accountId: string, request: { limit: number; cursor?: string }) => Promise<Page<T>>,
  view: (item: T) => unknown,
): Source {
  return async (deps, accountId, position, limit) => {
    const page = await list(deps, accountId, pageRequest(position, limit));
    return { records: page.items.map(view), next: nextOf(page) };
  };
}

/** The account's emails with their tenant as read now (null once deleted), as GET /emails/{id}. */
async function emailsPage(deps: ExportSources, accountId: string, position: ListPosition | null, limit: number) {
  const page = await deps.emailListing.list(accountId, pageRequest(position, limit));
  return { emails: await withLiveTenants(deps, page.items), next: nextOf(page) };
}

/**
 * The account's suppression list, then each tenant's (tenants read one at a time through their list:
 * the position keeps the tenant being read and the tenants listing's cursor after it).
 */
const suppressions: Source = async (deps, accountId, position, limit) => {
  const tenant = position?.tenant ?? null;
  const page = await deps.suppressions.list(accountId, tenant?.id ?? null, {}, pageRequest(position, limit));
  const records = page.items.map((suppression) => toPublicSuppression(suppression, tenant?.external_id ?? null));
  const csv = records.map((record) => ({
    email: record.email,
    reason: record.reason,
    scope: record.scope,
    tenant: record.tenant,
    created_at: record.created_at,
    id: record.id,
  }));
  if (page.next_cursor)
    return { records, csv, next: { cursor: page.next_cursor, tenant, tenants_cursor: position?.tenants_cursor ?? null } };
  // This list is done: the next tenant (from the start after the account's list; none left after the last).
  if (tenant !== null && !position?.tenants_cursor) return { records, csv, next: null };
  let cursor = tenant === null ? undefined : position!.tenants_cursor!;
  for (;;) {
    const tenants = await deps.tenants.list(accountId, { limit: 1, ...(cursor ? { cursor } : {}) });
    const found = tenants.items[0];
    if (found)
      return {
        records,
        csv,
        next: { cursor: null, tenant: { id: found.id, external_id: found.external_id }, tenants_cursor: tenants.next_cursor },
      };
    if (!tenants.next_cursor) return { records, csv, next: null };
    cursor = tenants.next_cursor;
  }
};

export const SOURCES: Record<ExportKind, Source> = {
  emails: async (deps, accountId, position, limit) => {
    const { emails, next } = await emailsPage(deps, accountId, position, limit);
    return { records: emails.map(toPublicEmail), next };
  },
  events: async (deps, accountId, position, limit) => {
    const { emails, next } = await emailsPage(deps, accountId, position, limit);
    return { records: emails.flatMap(emailEvents), next };
  },
  domains: simple((deps, accountId, request) => deps.domains.list(accountId, request), toPublicDomain),
  webhooks: simple((deps, accountId, request) => deps.webhooks.list(accountId, request), toPublicWebhook),
  suppressions,
  templates: simple((deps, accountId, request) => deps.templates.list(accountId, request), toPublicTemplate),
  automations: simple((deps, accountId, request) => deps.automations.list(accountId, request), toPublicAutomation),
  received_emails: simple((deps, accountId, request) => deps.receivedEmails.list(accountId, request), toPublicReceivedEmail),
};
