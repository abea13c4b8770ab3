/** The domains group's /dns-providers routes: the stored DNS host credentials apply may use (the secret is taken, sealed, and never returned). */
import type { Hono } from 'hono';
import { dnsProviderParamSchema, storeDnsProviderSchema } from '#shared/domain/domains/schemas';
import { NotFoundError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { jsonBody } from '#shared/doors/http/request-validation';
import { deleteDnsProvider, listDnsProviders, storeDnsProvider } from '#shared/usecases/domains/dns-providers';
import { domainOps } from './operations';
import type { DomainsServices } from './services';

/** The host named in /dns-providers/{provider}; any other name is an unknown resource (404). */
function dnsProviderOf(value: string) {
  const parsed = dnsProviderParamSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError('DNS provider', value);
  return parsed.data;
}

export function addDnsProviderRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

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
}
