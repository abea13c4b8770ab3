/** The domains group's routes of a receiving domain's inbound routes: read them, replace them (docs/inbound.md, "Routes"). */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { getInboundRoutes, putInboundRoutes } from '#shared/usecases/inbound/inbound-routes';
import { domainOps } from './operations';
import type { DomainsServices } from './services';

export function addInboundRoutesRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

  route(domainOps.getDomainInboundRoutes, async (c, { params }) => {
    return c.json(await getInboundRoutes(services, c.get('principal'), params.id));
  });

  route(domainOps.putDomainInboundRoutes, async (c, { body, params }) => {
    return c.json(await putInboundRoutes(services, c.get('principal'), params.id, body));
  });
}
