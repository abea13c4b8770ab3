/**
 * One domain's page (./domain-pages.ts registers it): its DNS records and each record's status, the Verify
 * button, the mail provider's (SES's) verification while it is not done (../dashboard/pages/domain-provider.ts),
 * the stored health check's findings, the last 30 days of DMARC figures (./dmarc-section.ts), the hosted
 * MTA-STS policy (./mta-sts-section.ts), the link domain (./link-domain-section.ts), a receiving domain's inbound routes (./inbound-routes-section.ts) and
 * the DNS apply form; after an apply, each record's result first.
 */
import type { ApplyReport } from '#shared/usecases/domains/dns-apply';
import type { Domain, toPublicDomain } from '#shared/domain/domains/domain';
import type { StoredDomainHealth } from '#shared/usecases/domains/stored-health';
import { buttonForm, input, postForm, render, select, type PageContext } from '../dashboard/pages/forms';
import type { DashboardDomainsServices } from './services';
import { badge, html, table, time, type Flash, type Html, type PageOptions } from '../dashboard/pages/layout';
import { providerNotice } from '../dashboard/pages/domain-provider';
import { dmarcFiguresOf, type DmarcFigures } from '#shared/usecases/dmarc/figures';
import { dmarcSection } from './dmarc-section';
import { mtaStsSection } from './mta-sts-section';
import { hostingViewOf } from '#shared/usecases/domains/mta-sts/manage';
import type { PublicHosting } from '#shared/domain/domains/mta-sts/hosting';
import { linkDomainViewOf } from '#shared/usecases/domains/link-domain/manage';
import type { PublicLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import { linkDomainSection } from './link-domain-section';
import { toPublicInboundRoutes, type PublicInboundRoutes } from '#shared/usecases/inbound/inbound-routes';
import { inboundRoutesSection } from './inbound-routes-section';

export type PublicDomain = ReturnType<typeof toPublicDomain>;

function recordsTable(domain: PublicDomain): Html {
  return table(
    `DNS records of ${domain.name}`,
    ['Purpose', 'Type', 'Name', 'Value', 'Required', 'Status', 'Notes'],
    domain.records.map(
      (record) =>
        html`<tr><td>${record.purpose.replace(/_/g, ' ')}</td><td>${record.type}</td><td><code>${record.name}</code></td><td><code class="value">${record.priority !== undefined ? `${record.priority} ` : ''}${record.value}</code></td><td>${record.required ? 'yes' : 'no'}</td><td>${badge(record.status)}</td><td>${record.message ?? ''}${record.found?.length ? html`<br><span class="muted">Found: ${record.found.join(' | ')}</span>` : ''}</td></tr>`,
    ),
  );
}

/** The stored health check's findings, open first: every value from DNS is interpolated (escaped), never markup. */
function healthSection(c: PageContext, health: StoredDomainHealth): Html {
  const { summary } = health;
  const rows = health.findings.map(
    (finding) =>
      html`<tr><td>${finding.status === 'fixed' ? badge('fixed') : badge(finding.impact)}</td><td>${finding.check.replace(/_/g, ' ')}</td><td><code>${finding.type}</code><br>${finding.message}<br><span class="muted">${finding.status === 'fixed' ? html`Fixed ${time(finding.fixed_at)}` : html`Open since ${time(finding.first_seen_at)}`}</span></td><td>${finding.record ? html`${finding.record.type} <code>${finding.record.name}</code><br><code class="value">${finding.record.value}</code>` : html`<span class="muted">—</span>`}</td><td><a href="${finding.docs_url}" rel="noreferrer">source</a></td></tr>`,
  );
  return html`<section aria-labelledby="health-heading"><h2 id="health-heading">Health</h2>
<p>Checked ${time(health.checked_at)}, next check ${time(health.next_check_at)}: ${summary.high} high, ${summary.low} low open${summary.spf_lookups !== null ? `; SPF uses ${summary.spf_lookups} of 10 DNS lookups` : ''}.</p>
${table(`Health findings of ${health.domain}, open first, high impact first`, ['Impact', 'Check', 'Finding', 'Record to publish', 'Why'], rows, 'No findings: SPF, DKIM, DMARC, MTA-STS, TLS-RPT and BIMI records are as recommended.')}
<div class="actions">${buttonForm(c, `/dashboard/domains/${health.domain_id}/health`, 'Check now')} <span class="hint">Checks DNS now (up to about 10 seconds); a change fires domain.health_changed.</span></div></section>`;
}

function applyForm(c: PageContext, domain: PublicDomain): Html {
  return html`<section aria-labelledby="apply-heading"><h2 id="apply-heading">Apply DNS</h2>
<p class="hint">Writes these records at your DNS host (an existing SPF record gets our include; other records stay), then verifies. Leave the credentials empty to use the ones stored for your account, or for Route 53 the service's own AWS role. Credentials typed here are used for this request only.</p>
${postForm(
  c,
  `/dashboard/domains/${domain.id}/apply`,
  html`${select(
    'DNS host',
    'provider',
    [
      { value: 'route53', label: 'Route 53' },
      { value: 'cloudflare', label: 'Cloudflare' },
    ],
    'route53',
    { id: 'dns-host' },
  )}
<fieldset data-host="route53"><legend>Route 53 credentials (optional)</legend><div class="fields">${input('Access key ID', 'access_key_id', { autocomplete: 'off' })}${input('Secret access key', 'secret_access_key', { type: 'password', autocomplete: 'off' })}</div></fieldset>
<fieldset data-host="cloudflare"><legend>Cloudflare credentials (optional)</legend><div class="fields">${input('API token', 'api_token', { type: 'password', autocomplete: 'off' })}</div></fieldset>
<p><button type="submit">Apply DNS records</button></p>`,
)}</section>`;
}

function applyResults(apply: ApplyReport): Html {
  return html`<section aria-labelledby="apply-results-heading"><h2 id="apply-results-heading">Apply results</h2>
<p>Host: ${apply.provider === 'route53' ? 'Route 53' : 'Cloudflare'}, zone <code>${apply.zone.name}</code>; credentials: ${apply.credentials}${apply.settled === false ? '; the host had not confirmed the change yet when verifying (verify again shortly)' : ''}.</p>
${table(
  'What was written, per record',
  ['Purpose', 'Type', 'Name', 'Value', 'Result', 'Message'],
  apply.records.map(
    (record) =>
      html`<tr><td>${record.purpose.replace(/_/g, ' ')}</td><td>${record.type}</td><td><code>${record.name}</code></td><td><code class="value">${record.value}</code>${record.previous ? html`<br><span class="muted">Before: ${record.previous}</span>` : ''}</td><td>${badge(record.action)}</td><td>${record.message}</td></tr>`,
  ),
)}</section>`;
}

/** The last 30 days of the domain's DMARC figures, with its top 10 other senders. */
function recentDmarc(services: DashboardDomainsServices, domain: Domain): Promise<DmarcFigures> {
  return dmarcFiguresOf(services, domain, { limit: 10, group: 'others' });
}

/** What a domain's page shows beside the domain. */
interface DomainPageParts {
  health: StoredDomainHealth;
  dmarc: DmarcFigures;
  mtaSts: PublicHosting | null;
  linkDomain: PublicLinkDomain | null;
  /** The inbound routes of a domain that receives mail (null otherwise: no Routes section). */
  routes: PublicInboundRoutes | null;
}

/** After a form the page answers itself (not a redirect): its message, status, and the routes' JSON as posted. */
interface DomainPageOptions {
  flash?: Flash;
  status?: PageOptions['status'];
  routesDraft?: string;
}

/**
 * The page's parts, read together: the health check (`health`: the stored one, or one run now), DMARC figures,
 * MTA-STS, the link domain; the routes are on the domain's item (no read more).
 */
export async function pageParts(
  services: DashboardDomainsServices,
  domain: Domain,
  health: (domain: Domain) => Promise<StoredDomainHealth>,
): Promise<DomainPageParts> {
  const [checked, dmarc, mtaSts, linkDomain] = await Promise.all([
    health(domain),
    recentDmarc(services, domain),
    hostingViewOf(services, domain),
    linkDomainViewOf(services, domain),
  ]);
  return { health: checked, dmarc, mtaSts, linkDomain, routes: domain.inbound_enabled ? toPublicInboundRoutes(domain) : null };
}

/** The page: the apply's results (after an apply), the facts, the records, health, DMARC, MTA-STS, the link domain, routes and the apply form. */
export function domainPage(
  c: PageContext,
  domain: PublicDomain,
  apply: ApplyReport | null,
  { health, dmarc, mtaSts, linkDomain, routes }: DomainPageParts,
  options: DomainPageOptions = {},
): Response {
  const body = html`${apply ? applyResults(apply) : ''}
<dl class="facts"><dt>Added</dt><dd>${time(domain.created_at)}</dd><dt>Last checked</dt><dd>${time(domain.last_checked_at)}</dd><dt>Verified</dt><dd>${time(domain.verified_at)}</dd>${domain.tenant ? html`<dt>Tenant</dt><dd>${domain.tenant}</dd>` : ''}</dl>
${providerNotice(domain, buttonForm(c, `/dashboard/domains/${domain.id}/verify`, 'Verify again'))}
<section aria-labelledby="records-heading"><h2 id="records-heading">DNS records</h2>${recordsTable(domain)}
<div class="actions">${buttonForm(c, `/dashboard/domains/${domain.id}/verify`, 'Verify')} <span class="hint">Checks each record in DNS now.</span></div></section>
${healthSection(c, health)}
${dmarcSection(dmarc, buttonForm(c, `/dashboard/domains/${domain.id}/dmarc`, 'Read DMARC reports'))}
${mtaStsSection(c, domain, mtaSts, domain.status === 'verified' && domain.inbound_enabled)}
${linkDomainSection(c, domain, linkDomain, domain.status === 'verified')}
${inboundRoutesSection(c, domain.id, routes, options.routesDraft)}
${applyForm(c, domain)}`;
  return render(c, {
    title: domain.name,
    lead: html`<p><a href="/dashboard/domains">← All domains</a> · Status: ${badge(domain.status)}</p>`,
    body,
    ...(options.flash ? { flash: options.flash } : {}),
    ...(options.status ? { status: options.status } : {}),
  });
}
