/** The domains group's routes of a domain's health: its stored health check (read, check now) and its DMARC aggregate figures. */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { getDmarcFigures } from '#shared/usecases/dmarc/figures';
import { checkDomainHealthNow, getDomainHealth } from '#shared/usecases/domains/stored-health';
import { domainOps } from './operations';
import type { DomainsServices } from './services';

export function addDomainHealthRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

  route(domainOps.getDomainHealth, async (c, { params }) => {
    return c.json(await getDomainHealth(services, c.get('principal'), params.id));
  });

  route(domainOps.checkDomainHealth, async (c, { params }) => {
    return c.json(await checkDomainHealthNow(services, c.get('principal'), params.id));
  });

  route(domainOps.getDomainDmarc, async (c, { params, query }) => {
    return c.json(await getDmarcFigures(services, c.get('principal'), params.id, query));
  });
}
