/**
 * The domains group: add, list, read, change settings, delete, verify, and apply (write the records at
 * the domain's DNS host, then verify): ./domain-routes.ts; a domain's health and DMARC figures
 * (./domain-health-routes.ts), its hosted MTA-STS policy (./mta-sts-routes.ts), its link domain
 * (./link-domain-routes.ts) and its receiving subdomain's
 * inbound routes (./inbound-routes-routes.ts); also the stored DNS host
 * credentials apply may use (/dns-providers: ./dns-provider-routes.ts). Registered in this order.
 */
import type { Hono } from 'hono';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { addDnsProviderRoutes } from './dns-provider-routes';
import { addDomainHealthRoutes } from './domain-health-routes';
import { addDomainChangeRoutes, addDomainRoutes } from './domain-routes';
import { addInboundRoutesRoutes } from './inbound-routes-routes';
import { addMtaStsRoutes } from './mta-sts-routes';
import { addLinkDomainRoutes } from './link-domain-routes';
import type { DomainsServices } from './services';

export type { DomainsServices } from './services';

export function createDomainsApp(services: DomainsServices): Hono<ApiEnv> {
  const app = createApi(services);
  addDomainRoutes(app, services);
  addDomainHealthRoutes(app, services);
  addMtaStsRoutes(app, services);
  addLinkDomainRoutes(app, services);
  addInboundRoutesRoutes(app, services);
  addDomainChangeRoutes(app, services);
  addDnsProviderRoutes(app, services);
  return app;
}
