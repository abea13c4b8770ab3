/**
 * Domains: the list and the add form, with the account's sending of the last 30 days (./sending-section.ts: rates,
 * bounces by category); one domain's page with its DNS records and each record's status,
 * the Verify button, the mail provider's (SES's) verification while it is not done (../dashboard/pages/domain-provider.ts),
 * and DNS apply (write the records at Route 53 or Cloudflare, then verify), whose
 * answer shows each record's result. Use cases: createDomain, listDomains, getDomain, verifyDomain,
 * applyDomainDns (the domains group's), and the stored health check (storedHealthOf: checked daily; a domain
 * never checked is checked on its first view; "Check now" runs runStoredHealthCheck), its findings open and
 * fixed, DNS content shown as text; and the last 30 days of the domain's DMARC aggregate reports
 * (./dmarc-section.ts, dmarcFiguresOf); the hosted MTA-STS policy of its receiving subdomain (./mta-sts-section.ts:
 * host it, change its mode, stop). Credentials typed into the apply form are used for that request only
 * and never shown again.
 */
import type { ApplyReport } from '#shared/usecases/domains/dns-apply';
import { toPublicDomain } from '#shared/domain/domains/domain';
import { applyDnsSchema, createDomainSchema, updateDomainSchema } from '#shared/domain/domains/schemas';
import { parseWith } from '#shared/doors/http/validate';
import { applyDomainDns } from '#shared/usecases/domains/dns-apply';
import { createDomain, getDomain, listDomains, updateDomain } from '#shared/usecases/domains/manage';
import {
  checkDomainHealthNow,
  runStoredHealthCheck,
  storedHealthOf,
  type StoredDomainHealth,
} from '#shared/usecases/domains/stored-health';
import { verifyDomain } from '#shared/usecases/domains/verify';
import {
  buttonForm,
  field,
  formAction,
  input,
  pager,
  pageRequest,
  pageState,
  postForm,
  redirectTo,
  render,
  select,
  type PageContext,
  param,
} from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardDomainsServices } from './services';
import { badge, html, table, time, type Html } from '../dashboard/pages/layout';
import { providerMarker, providerNotice } from '../dashboard/pages/domain-provider';
import { dmarcFiguresOf, type DmarcFigures } from '#shared/usecases/dmarc/figures';
import type { Domain } from '#shared/domain/domains/domain';
import { dmarcSection } from './dmarc-section';
import { mtaStsSection } from './mta-sts-section';
import { sendingSection } from './sending-section';
import { getAccountStats } from '#shared/usecases/account/account-stats';
import { deleteHosting, hostingViewOf, putHosting } from '#shared/usecases/domains/mta-sts/manage';
import type { PublicHosting } from '#shared/domain/domains/mta-sts/hosting';
import { mtaStsInputSchema } from '#shared/domain/domains/mta-sts/policy';
import { recordCreated } from '#shared/doors/http/created-ids';

type PublicDomain = ReturnType<typeof toPublicDomain>;

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
}

async function pageParts(
  services: DashboardDomainsServices,
  domain: Domain,
  health: (domain: Domain) => Promise<StoredDomainHealth>,
): Promise<DomainPageParts> {
  const [checked, dmarc, mtaSts] = await Promise.all([health(domain), recentDmarc(services, domain), hostingViewOf(services, domain)]);
  return { health: checked, dmarc, mtaSts };
}

function domainPage(c: PageContext, domain: PublicDomain, apply: ApplyReport | null, { health, dmarc, mtaSts }: DomainPageParts): Response {
  const body = html`${apply ? applyResults(apply) : ''}
<dl class="facts"><dt>Added</dt><dd>${time(domain.created_at)}</dd><dt>Last checked</dt><dd>${time(domain.last_checked_at)}</dd><dt>Verified</dt><dd>${time(domain.verified_at)}</dd>${domain.tenant ? html`<dt>Tenant</dt><dd>${domain.tenant}</dd>` : ''}</dl>
${providerNotice(domain, buttonForm(c, `/dashboard/domains/${domain.id}/verify`, 'Verify again'))}
<section aria-labelledby="records-heading"><h2 id="records-heading">DNS records</h2>${recordsTable(domain)}
<div class="actions">${buttonForm(c, `/dashboard/domains/${domain.id}/verify`, 'Verify')} <span class="hint">Checks each record in DNS now.</span></div></section>
${healthSection(c, health)}
${dmarcSection(dmarc, buttonForm(c, `/dashboard/domains/${domain.id}/dmarc`, 'Read DMARC reports'))}
${mtaStsSection(c, domain, mtaSts, domain.status === 'verified' && domain.inbound_enabled)}
${applyForm(c, domain)}`;
  return render(c, {
    title: domain.name,
    lead: html`<p><a href="/dashboard/domains">← All domains</a> · Status: ${badge(domain.status)}</p>`,
    body,
  });
}

export function addDomainPages(routes: PageRoutes<DashboardDomainsServices>): void {
  const { services } = routes;

  routes.page('/domains', async (c) => {
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
  });

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

  routes.action('/domains/:id/mta-sts', (c, form) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const hosting = await putHosting(
        services,
        c.get('principal'),
        param(c, 'id'),
        parseWith(mtaStsInputSchema, { mode: field(form, 'mode') ?? 'testing' }),
      );
      return redirectTo(c, back, {
        kind: 'ok',
        text: `MTA-STS policy (${hosting.mode}) saved: its next step is taken within a minute; publish the records it lists as they appear.`,
      });
    });
  });

  routes.action('/domains/:id/mta-sts/delete', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      await deleteHosting(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, back, {
        kind: 'ok',
        text: "The MTA-STS policy is no longer served; its host's certificate and custom domain name are deleted within minutes.",
      });
    });
  });

  routes.action('/domains/:id/dmarc', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const domain = await updateDomain(
        services,
        c.get('principal'),
        param(c, 'id'),
        parseWith(updateDomainSchema, { dmarc_reports: { enabled: true } }),
      );
      return redirectTo(c, back, {
        kind: 'ok',
        text: `DMARC reports are read at ${domain.dmarc_reports_address ?? 'the report address'}: publish the DMARC record with its rua= (DNS records).`,
      });
    });
  });

  routes.action('/domains/:id/health', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const health = await checkDomainHealthNow(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, back, { kind: 'ok', text: `Checked: ${health.summary.high} high and ${health.summary.low} low findings open.` });
    });
  });

  routes.action('/domains/:id/verify', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const domain = await verifyDomain(services, c.get('principal'), param(c, 'id'));
      const waiting = domain.records.filter((record) => record.required && record.status !== 'verified').length;
      const text =
        domain.status === 'verified'
          ? `${domain.name} is verified.`
          : waiting === 0 && domain.provider && domain.provider.status !== 'verified'
            ? `Checked: ${domain.name} is ${domain.status}; every required record is verified, SES has not confirmed the domain yet (see Mail provider).`
            : `Checked: ${domain.name} is ${domain.status}; ${waiting} required record${waiting === 1 ? '' : 's'} not verified yet.`;
      return redirectTo(c, back, { kind: 'ok', text });
    });
  });

  routes.action('/domains/:id/apply', (c, form) =>
    formAction(c, `/dashboard/domains/${param(c, 'id')}`, async () => {
      const provider = field(form, 'provider') ?? 'route53';
      const credentials =
        provider === 'cloudflare'
          ? field(form, 'api_token') && { api_token: field(form, 'api_token') }
          : (field(form, 'access_key_id') || field(form, 'secret_access_key')) && {
              access_key_id: field(form, 'access_key_id') ?? '',
              secret_access_key: field(form, 'secret_access_key') ?? '',
            };
      const input = parseWith(applyDnsSchema, { action: 'apply', provider, ...(credentials ? { credentials } : {}) });
      const outcome = await applyDomainDns(services, c.get('principal'), param(c, 'id'), input);
      return domainPage(
        c,
        toPublicDomain(outcome.domain),
        outcome.apply,
        await pageParts(services, outcome.domain, (d) => runStoredHealthCheck(services, d)),
      );
    }),
  );
}
