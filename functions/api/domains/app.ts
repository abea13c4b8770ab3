/**
 * The domains group: add, list, read, change settings, delete, verify, and apply (write the records at
 * the domain's DNS host, then verify); also the stored DNS host credentials apply may use (/dns-providers).
 */
import type { Hono } from 'hono';
import { toPublicDomain } from '#shared/domain/domains/domain';
import { applyDnsSchema, dnsProviderParamSchema, domainActionSchema, storeDnsProviderSchema } from '#shared/domain/domains/schemas';
import { NotFoundError } from '#shared/domain/errors';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { jsonBody, parseWith, readJson } from '#shared/doors/http/validate';
import { domainOps } from './operations';
import type {
  CoreServices,
  DeliverabilityServices,
  DnsApplyServices,
  MtaStsHostingServices,
  MessagingServices,
  SecretServices,
  SesServices,
} from '#shared/services';
import { applyDomainDns } from '#shared/usecases/domains/dns-apply';
import { deleteDnsProvider, listDnsProviders, storeDnsProvider } from '#shared/usecases/domains/dns-providers';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain } from '#shared/usecases/domains/manage';
import { checkDomainHealthNow, getDomainHealth } from '#shared/usecases/domains/stored-health';
import { getDmarcFigures } from '#shared/usecases/dmarc/figures';
import { verifyDomain } from '#shared/usecases/domains/verify';
import { deleteHosting, getHosting, putHosting } from '#shared/usecases/domains/mta-sts/manage';

/** The host named in /dns-providers/{provider}; any other name is an unknown resource (404). */
function dnsProviderOf(value: string) {
  const parsed = dnsProviderParamSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError('DNS provider', value);
  return parsed.data;
}

/** What the group uses (its handler composes exactly this: shared/services/). */
export type DomainsServices = CoreServices &
  SesServices &
  SecretServices &
  DnsApplyServices &
  DeliverabilityServices &
  MtaStsHostingServices &
  Pick<MessagingServices, 'events'>;

export function createDomainsApp(services: DomainsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app);

  route(domainOps.createDomain, async (c, { body }) => {
    return c.json({ domain: toPublicDomain(await createDomain(services, c.get('principal'), body)) }, 201);
  });

  route(domainOps.listDomains, async (c, { query }) => {
    return c.json(listPage('domains', await listDomains(services, c.get('principal'), query, query.tenant), toPublicDomain));
  });

  route(domainOps.getDomain, async (c, { params }) => {
    return c.json({ domain: toPublicDomain(await getDomain(services, c.get('principal'), params.id)) });
  });

  route(domainOps.getDomainHealth, async (c, { params }) => {
    return c.json(await getDomainHealth(services, c.get('principal'), params.id));
  });

  route(domainOps.checkDomainHealth, async (c, { params }) => {
    return c.json(await checkDomainHealthNow(services, c.get('principal'), params.id));
  });

  route(domainOps.getDomainDmarc, async (c, { params, query }) => {
    return c.json(await getDmarcFigures(services, c.get('principal'), params.id, query));
  });

  route(domainOps.getDomainMtaSts, async (c, { params }) => {
    return c.json(await getHosting(services, c.get('principal'), params.id));
  });

  route(domainOps.putDomainMtaSts, async (c, { body, params }) => {
    return c.json(await putHosting(services, c.get('principal'), params.id, body));
  });

  route(domainOps.deleteDomainMtaSts, async (c, { params }) => {
    return c.json(await deleteHosting(services, c.get('principal'), params.id));
  });

  route(domainOps.updateDomain, async (c, { body, params }) => {
    return c.json({ domain: toPublicDomain(await updateDomain(services, c.get('principal'), params.id, body)) });
  });

  route(domainOps.deleteDomain, async (c, { params }) => {
    await deleteDomain(services, c.get('principal'), params.id);
    return c.json({ ok: true });
  });

  route(domainOps.domainAction, async (c, { params }) => {
    const body = await readJson(c);
    const { action } = parseWith(domainActionSchema, body);
    if (action === 'apply') {
      const outcome = await applyDomainDns(services, c.get('principal'), params.id, parseWith(applyDnsSchema, body));
      return c.json({ domain: toPublicDomain(outcome.domain), apply: outcome.apply });
    }
    return c.json({ domain: toPublicDomain(await verifyDomain(services, c.get('principal'), params.id)) });
  });

  // Stored DNS host credentials for apply: the secret is taken, sealed, and never returned.
  route(domainOps.listDnsProviders, async (c) => {
    return c.json({ dns_providers: await listDnsProviders(services, c.get('principal')) });
  });

  route(domainOps.storeDnsProvider, async (c, { params }) => {
    const provider = dnsProviderOf(params.provider);
    const credentials = await jsonBody(c, storeDnsProviderSchema(provider));
    return c.json({ dns_provider: await storeDnsProvider(services, c.get('principal'), credentials) });
  });

  route(domainOps.deleteDnsProvider, async (c, { params }) => {
    await deleteDnsProvider(services, c.get('principal'), dnsProviderOf(params.provider));
    return c.json({ ok: true });
  });

  return app;
}
