/**
 * The domains group: add, list, read, change settings, delete, verify, and apply (write the records at
 * the domain's DNS host, then verify); also the stored DNS host credentials apply may use (/dns-providers).
 */
import type { Hono } from 'hono';
import { toPublicDomain } from '../../../shared/domain/domains/domain';
import {
  applyDnsSchema,
  createDomainSchema,
  dnsProviderParamSchema,
  domainActionSchema,
  listDomainsQuerySchema,
  storeDnsProviderSchema,
  updateDomainSchema,
} from '../../../shared/domain/domains/schemas';
import { NotFoundError } from '../../../shared/domain/errors';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith, readJson } from '../../../shared/http/validate';
import type { CoreServices, DnsApplyServices, SecretServices, SesServices } from '../../../shared/services';
import { applyDomainDns } from '../../../shared/usecases/dns-apply';
import { deleteDnsProvider, listDnsProviders, storeDnsProvider } from '../../../shared/usecases/dns-providers';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain, verifyDomain } from '../../../shared/usecases/domains';

/** The host named in /dns-providers/{provider}; any other name is an unknown resource (404). */
function dnsProviderOf(value: string) {
  const parsed = dnsProviderParamSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError('DNS provider', value);
  return parsed.data;
}

/** What the group uses (its handler composes exactly this: shared/services/). */
export type DomainsServices = CoreServices & SesServices & SecretServices & DnsApplyServices;

export function createDomainsApp(services: DomainsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const read = requireScope('domains:write', 'account:read');
  const write = requireScope('domains:write');

  app.post('/domains', write, async (c) => {
    const domain = await createDomain(services, c.get('principal'), await jsonBody(c, createDomainSchema));
    return c.json({ domain: toPublicDomain(domain) }, 201);
  });

  app.get('/domains', read, async (c) => {
    const query = c.req.query();
    const page = parseWith(pageQuerySchema, query, 'query');
    const { tenant } = parseWith(listDomainsQuerySchema, query, 'query');
    const result = await listDomains(services, c.get('principal'), page, tenant);
    return c.json({ domains: result.items.map(toPublicDomain), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.get('/domains/:id', read, async (c) => {
    return c.json({ domain: toPublicDomain(await getDomain(services, c.get('principal'), c.req.param('id'))) });
  });

  app.patch('/domains/:id', write, async (c) => {
    const changes = await jsonBody(c, updateDomainSchema);
    return c.json({ domain: toPublicDomain(await updateDomain(services, c.get('principal'), c.req.param('id'), changes)) });
  });

  app.delete('/domains/:id', write, async (c) => {
    await deleteDomain(services, c.get('principal'), c.req.param('id'));
    return c.json({ ok: true });
  });

  app.post('/domains/:id', write, async (c) => {
    const body = await readJson(c);
    const { action } = parseWith(domainActionSchema, body);
    if (action === 'apply') {
      const outcome = await applyDomainDns(services, c.get('principal'), c.req.param('id'), parseWith(applyDnsSchema, body));
      return c.json({ domain: toPublicDomain(outcome.domain), apply: outcome.apply });
    }
    return c.json({ domain: toPublicDomain(await verifyDomain(services, c.get('principal'), c.req.param('id'))) });
  });

  // Stored DNS host credentials for apply: the secret is taken, sealed, and never returned.
  app.get('/dns-providers', write, async (c) => {
    return c.json({ dns_providers: await listDnsProviders(services, c.get('principal')) });
  });

  app.put('/dns-providers/:provider', write, async (c) => {
    const provider = dnsProviderOf(c.req.param('provider'));
    const credentials = await jsonBody(c, storeDnsProviderSchema(provider));
    return c.json({ dns_provider: await storeDnsProvider(services, c.get('principal'), credentials) });
  });

  app.delete('/dns-providers/:provider', write, async (c) => {
    const provider = dnsProviderOf(c.req.param('provider'));
    await deleteDnsProvider(services, c.get('principal'), provider);
    return c.json({ ok: true });
  });

  return app;
}
