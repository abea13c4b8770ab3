/**
 * A managed unsubscribe (spec rule 10 and 11; docs/tracking.md "Unsubscribe links"), from a resolved
 * link: the RFC 8058 one-click POST or the confirmation page's form.
 *
 * - scope `all` (transactional mail): the address goes on the suppression list with reason
 *   `unsubscribe`: the tenant's list for a tenant's email, else the account's;
 * - scope `category` (product, newsletter): a category opt-out on the same list, which does not block
 *   other mail.
 *
 * Both writes are idempotent (the existing record is kept), and `contact.unsubscribed` has an id derived
 * from (email id, recipient, scope), so a repeated POST (mailbox providers retry, people click twice)
 * is delivered once. The email's record is read only to name its tenant on the event: a link of a
 * deleted email still unsubscribes (the address is what matters), with a null tenant.
 */
import { timeOfId } from '../../domain/ids';
import type { Category } from '../../domain/mail/category';
import type { UnsubscribeLink } from '../../domain/links/link-urls';
import type { OptOutCategory } from '../../domain/suppressions/reasons';
import { emailEventId, type ServiceEvent } from '../../domain/webhooks/event';
import type { EventPublisher } from '../../ports/events';
import type { EmailReads } from '../../adapters/store/emails/read';
import { recordCategoryOptOut, suppressAddresses, type SuppressionDeps } from '../suppressions/suppressions';

export type UnsubscribeSource = 'one_click' | 'confirmation_page';

export interface UnsubscribeDeps extends SuppressionDeps {
  emails: Pick<EmailReads, 'get'>;
  events: EventPublisher;
}

/** How each category is named to recipients and in `category_label`. */
export const CATEGORY_LABELS: Record<Category, string> = {
  transactional: 'Transactional email',
  product: 'Product updates',
  newsletter: 'Newsletter',
};

export interface UnsubscribeResult {
  /** The suppression (scope all) or opt-out (scope category) on the list, new or already there. */
  suppressionId: string | null;
  categoryOptOutId: string | null;
  /** False when the address was already unsubscribed (the record was there). */
  created: boolean;
  event: ServiceEvent;
}

/** The category a link opts out of: only product and newsletter have opt-outs (token.ts refuses others). */
function optOutCategoryOf(link: UnsubscribeLink): OptOutCategory {
  if (link.category === 'transactional') throw new Error('A category unsubscribe link cannot be of transactional mail');
  return link.category;
}

export async function unsubscribe(deps: UnsubscribeDeps, link: UnsubscribeLink, source: UnsubscribeSource): Promise<UnsubscribeResult> {
  const list = { accountId: link.accountId, tenantId: link.tenantId };
  let suppressionId: string | null = null;
  let categoryOptOutId: string | null = null;
  let created: boolean;
  if (link.scope === 'all') {
    const result = await suppressAddresses(deps, { ...list, emails: [link.recipient], reason: 'unsubscribe' });
    suppressionId = result.suppressions[0]!.id;
    created = result.created.length > 0;
  } else {
    const result = await recordCategoryOptOut(deps, { ...list, email: link.recipient, category: optOutCategoryOf(link) });
    categoryOptOutId = result.optOut.id;
    created = result.created;
  }

  const stored = await deps.emails.get(link.emailId);
  const email = stored && stored.email.account_id === link.accountId ? stored.email : null;
  const category = link.scope === 'category' ? link.category : null;
  const event: ServiceEvent = {
    id: emailEventId(
      new Date(timeOfId(link.emailId)).toISOString(),
      link.emailId,
      'contact.unsubscribed',
      `${link.recipient}:${link.scope}`,
    ),
    type: 'contact.unsubscribed',
    account_id: link.accountId,
    tenant: email?.tenant ?? null,
    created_at: deps.clock.now().toISOString(),
    data: {
      email: link.recipient,
      source,
      scope: link.scope,
      category,
      category_label: category === null ? null : CATEGORY_LABELS[category],
      suppression_id: suppressionId,
      category_opt_out_id: categoryOptOutId,
      email_id: link.emailId,
    },
  };
  await deps.events.publish([event]);
  return { suppressionId, categoryOptOutId, created, event };
}
