/** The domains group's routes of a domain's hosted MTA-STS policy: read, host or change it, stop hosting it. */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { deleteHosting, getHosting, putHosting } from '#shared/usecases/domains/mta-sts/manage';
import { domainOps } from './operations';
import type { DomainsServices } from './services';

export function addMtaStsRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

  route(domainOps.getDomainMtaSts, async (c, { params }) => {
    return c.json(await getHosting(services, c.get('principal'), params.id));
  });

  route(domainOps.putDomainMtaSts, async (c, { body, params }) => {
    return c.json(await putHosting(services, c.get('principal'), params.id, body));
  });

  route(domainOps.deleteDomainMtaSts, async (c, { params }) => {
    return c.json(await deleteHosting(services, c.get('principal'), params.id));
  });
}
