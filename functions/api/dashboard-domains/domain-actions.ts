/**
 * The form actions of one domain's page (./domain-page.ts): its sections' (host, change or stop the MTA-STS
 * policy; set up, check or stop the link domain; read DMARC reports; check health now) and its DNS's (verify; apply the records at Route 53 or
 * Cloudflare, then verify: the answer is the page with each record's result). Credentials typed into the
 * apply form are used for that request only and never shown again.
 */
import { toPublicDomain, type Domain } from '#shared/domain/domains/domain';
import { mtaStsInputSchema } from '#shared/domain/domains/mta-sts/policy';
import { applyDnsSchema, updateDomainSchema } from '#shared/domain/domains/schemas';
import { parseWith } from '#shared/doors/http/request-validation';
import { applyDomainDns } from '#shared/usecases/domains/dns-apply';
import { updateDomain } from '#shared/usecases/domains/manage';
import { deleteHosting, putHosting } from '#shared/usecases/domains/mta-sts/manage';
import { deleteLinkDomain, putLinkDomain } from '#shared/usecases/domains/link-domain/manage';
import { checkDomainHealthNow, runStoredHealthCheck } from '#shared/usecases/domains/stored-health';
import { verifyDomain } from '#shared/usecases/domains/verify';
import { field, formAction, param, redirectTo } from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import { domainPage, pageParts } from './domain-page';
import type { DashboardDomainsServices } from './services';

/** What a check said, in a sentence: verified, waiting for SES, or how many required records are not verified yet. */
function verifyOutcomeText(domain: Domain): string {
  const waiting = domain.records.filter((record) => record.required && record.status !== 'verified').length;
  return domain.status === 'verified'
    ? `${domain.name} is verified.`
    : waiting === 0 && domain.provider && domain.provider.status !== 'verified'
      ? `Checked: ${domain.name} is ${domain.status}; every required record is verified, SES has not confirmed the domain yet (see Mail provider).`
      : `Checked: ${domain.name} is ${domain.status}; ${waiting} required record${waiting === 1 ? '' : 's'} not verified yet.`;
}

/** The apply form as applyDnsSchema's input: the host, and the credentials typed for it (none: the stored ones). */
function applyInput(form: URLSearchParams) {
  const provider = field(form, 'provider') ?? 'route53';
  const credentials =
    provider === 'cloudflare'
      ? field(form, 'api_token') && { api_token: field(form, 'api_token') }
      : (field(form, 'access_key_id') || field(form, 'secret_access_key')) && {
          access_key_id: field(form, 'access_key_id') ?? '',
          secret_access_key: field(form, 'secret_access_key') ?? '',
        };
  return parseWith(applyDnsSchema, { action: 'apply', provider, ...(credentials ? { credentials } : {}) });
}

/** The MTA-STS policy (host or change it, stop it), DMARC reports (read them), and Check now (health). */
export function addDomainSectionActions(routes: PageRoutes<DashboardDomainsServices>): void {
  const { services } = routes;

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
}

/** The link domain: set it up (again: check it now, or start a failed one over), stop it. */
export function addLinkDomainActions(routes: PageRoutes<DashboardDomainsServices>): void {
  const { services } = routes;

  routes.action('/domains/:id/link-domain', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const linkDomain = await putLinkDomain(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, back, {
        kind: 'ok',
        text: `Link domain ${linkDomain.host} (${linkDomain.status.replace(/_/g, ' ')}): its next step is taken within a minute; publish the records it lists as they appear.`,
      });
    });
  });

  routes.action('/domains/:id/link-domain/delete', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      await deleteLinkDomain(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, back, {
        kind: 'ok',
        text: "The link domain is stopped: the domain's emails link to the service's link host again; its certificate and custom domain name are deleted within minutes.",
      });
    });
  });
}

/** Verify (check each record in DNS now) and Apply DNS (write the records, then verify: the page with each record's result). */
export function addDomainDnsActions(routes: PageRoutes<DashboardDomainsServices>): void {
  const { services } = routes;

  routes.action('/domains/:id/verify', (c) => {
    const back = `/dashboard/domains/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const domain = await verifyDomain(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, back, { kind: 'ok', text: verifyOutcomeText(domain) });
    });
  });

  routes.action('/domains/:id/apply', (c, form) =>
    formAction(c, `/dashboard/domains/${param(c, 'id')}`, async () => {
      const input = applyInput(form);
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
