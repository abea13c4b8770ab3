/**
 * The domain page's link domain section (docs/tracking.md, "Link domains"): the domain's link domain
 * `links.<domain>`, where its tracked links, open pixels and unsubscribe links point once it is active, its
 * status and what to do next, and the records to publish in order; a button to set it up (again: check it now,
 * or start a failed one over) and one to stop it. Values from DNS are interpolated (escaped), never markup.
 */
import type { PublicLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import { buttonForm, type PageContext } from '../dashboard/pages/forms';
import { badge, html, time, type Html } from '../dashboard/pages/layout';
import { hostedRecordsTable } from './hosted-records';

/** `verified`: the domain is verified (a link domain can be set up for it). */
export function linkDomainSection(
  c: PageContext,
  domain: { id: string; name: string },
  linkDomain: PublicLinkDomain | null,
  verified: boolean,
): Html {
  const heading = html`<h2 id="link-domain-heading">Link domain</h2>`;
  const setUp = (label: string) => buttonForm(c, `/dashboard/domains/${domain.id}/link-domain`, label);
  if (!linkDomain) {
    const intro = html`<p class="hint">A link domain puts the domain's tracked links, open pixels and unsubscribe links on its own name, <code>links.${domain.name}</code>, instead of the service's link host. The service gets its certificate and serves it; you publish the records it lists. Until it is active, the domain's emails keep linking to the service's host.</p>`;
    return html`<section aria-labelledby="link-domain-heading">${heading}${intro}${verified ? setUp('Set up a link domain') : html`<p class="hint">Verify the domain first.</p>`}</section>`;
  }
  return html`<section aria-labelledby="link-domain-heading">${heading}
<p>Status: ${badge(linkDomain.status)} · <code>${linkDomain.base_url}</code></p>
${linkDomain.message ? html`<p class="hint">${linkDomain.message}</p>` : ''}
${hostedRecordsTable(`Records of the link domain ${linkDomain.host}, in the order to publish them`, linkDomain.records, 'No record to publish yet: the certificate validation record is listed within a minute.')}
<p class="muted">Records checked ${time(linkDomain.checked_at)}; next step ${time(linkDomain.next_check_at)}.</p>
<div class="actions">${setUp(linkDomain.status === 'failed' ? 'Start the link domain over' : 'Check the link domain')} ${buttonForm(c, `/dashboard/domains/${domain.id}/link-domain/delete`, 'Stop the link domain', { className: 'danger' })}</div></section>`;
}
