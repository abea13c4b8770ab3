/**
 * Domains: the list and the add form, with the account's sending of the last 30 days (./sending-section.ts: rates,
 * bounces by category); one domain's page (./domain-page.ts) with its DNS records and each record's status,
 * the Verify button, the mail provider's (SES's) verification while it is not done (../dashboard/pages/domain-provider.ts),
 * and DNS apply (write the records at Route 53 or Cloudflare, then verify), whose
 * answer shows each record's result. Use cases: createDomain, listDomains, getDomain, verifyDomain,
 * applyDomainDns (the domains group's), and the stored health check (storedHealthOf: checked daily; a domain
 * never checked is checked on its first view; "Check now" runs runStoredHealthCheck), its findings open and
 * fixed, DNS content shown as text; and the last 30 days of the domain's DMARC aggregate reports
 * (./dmarc-section.ts, dmarcFiguresOf); the hosted MTA-STS policy of its receiving subdomain (./mta-sts-section.ts:
 * host it, change its mode, stop); its link domain links.<domain> (./link-domain-section.ts: set it up, check it,
 * stop); a receiving domain's inbound routes (./inbound-routes-section.ts: the list,
 * and the JSON form that replaces it: ./inbound-routes-action.ts). The page's other actions are
 * ./domain-actions.ts's. Credentials typed into the apply form are used for that request only and never shown again.
 */
import { toPublicDomain } from '#shared/domain/domains/domain';
import { createDomainSchema } from '#shared/domain/domains/schemas';
import { parseWith } from '#shared/doors/http/request-validation';
import { createDomain, getDomain, listDomains } from '#shared/usecases/domains/manage';
import { storedHealthOf } from '#shared/usecases/domains/stored-health';
import {
  field,
  formAction,
  input,
  pager,
  pageRequest,
  pageState,
  postForm,
  redirectTo,
  render,
  type PageContext,
  param,
} from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardDomainsServices } from './services';
import { badge, html, table, time } from '../dashboard/pages/layout';
import { providerMarker } from '../dashboard/pages/domain-provider';
import { sendingSection } from './sending-section';
import { getAccountStats } from '#shared/usecases/account/account-stats';
import { recordCreated } from '#shared/doors/http/created-ids';
import { addDomainDnsActions, addDomainSectionActions, addLinkDomainActions } from './domain-actions';
import { addInboundRoutesAction } from './inbound-routes-action';
import { domainPage, pageParts } from './domain-page';

/** The domains, newest first, the add form, and the account's sending of the last 30 days. */
async function domainListPage(services: DashboardDomainsServices, c: PageContext): Promise<Response> {
  const state = pageState(c);
  const [page, stats] = await Promise.all([
    listDomains(services, c.get('principal'), pageRequest(state)),
    getAccountStats(services, c.get('principal'), 30),
  ]);
  const rows = page.items.map(
    (domain) =>
      html`<tr><td><a href="/dashboard/domains/${domain.id}">${domain.name}</a></td><td>${badge(domain.status)}${providerMarker(domain.provider)}</td><td>${domain.tenant ?? ''}</td><td>${time(domain.created_at)}</td></tr>`,
  );
  const body = html`${postForm(c, '/dashboard/domains', html`<div class="fields">${input('Domain name', 'name', { required: true, placeholder: 'example.com' })}<div class="field"><button type="submit">Add domain</button></div></div>`, 'class="card"')}
${table('Domains, newest first', ['Name', 'Status', 'Tenant', 'Added'], rows, 'No domains yet. Add one to send from your own address.')}
${pager('/dashboard/domains', {}, state, page.next_cursor)}
${sendingSection(stats)}`;
  return render(c, { title: 'Domains', body });
}

/** The list, the add action (then the new domain's page), and one domain's page. */
function addDomainListPages(routes: PageRoutes<DashboardDomainsServices>): void {
  const { services } = routes;

  routes.page('/domains', (c) => domainListPage(services, c));

  routes.action('/domains', (c, form) =>
    formAction(c, '/dashboard/domains', async () => {
      const domain = await createDomain(services, c.get('principal'), parseWith(createDomainSchema, { name: field(form, 'name') ?? '' }));
      recordCreated(c, 'id', domain.id);
      return redirectTo(c, `/dashboard/domains/${domain.id}`, {
        kind: 'ok',
        text: `${domain.name} added. Publish its records at your DNS host (or apply them below), then verify.`,
      });
    }),
  );

  routes.page('/domains/:id', async (c) => {
    const domain = await getDomain(services, c.get('principal'), param(c, 'id'));
    return domainPage(c, toPublicDomain(domain), null, await pageParts(services, domain, (d) => storedHealthOf(services, d)));
  });
}

export function addDomainPages(routes: PageRoutes<DashboardDomainsServices>): void {
  addDomainListPages(routes);
  addDomainSectionActions(routes);
  addLinkDomainActions(routes);
  addDomainDnsActions(routes);
  addInboundRoutesAction(routes);
}
