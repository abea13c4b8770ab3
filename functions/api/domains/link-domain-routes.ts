/** The domains group's routes of a domain's link domain `links.<domain>`: read it, ask for it, stop it. */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { deleteLinkDomain, getLinkDomain, putLinkDomain } from '#shared/usecases/domains/link-domain/manage';
import { domainOps } from './operations';
import type { DomainsServices } from './services';

export function addLinkDomainRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

  route(domainOps.getDomainLinkDomain, async (c, { params }) => {
    return c.json(await getLinkDomain(services, c.get('principal'), params.id));
  });

  route(domainOps.putDomainLinkDomain, async (c, { params }) => {
    return c.json(await putLinkDomain(services, c.get('principal'), params.id));
  });

  route(domainOps.deleteDomainLinkDomain, async (c, { params }) => {
    return c.json(await deleteLinkDomain(services, c.get('principal'), params.id));
  });
}
