/**
 * The domains group's routes of a domain itself: add, list and read (addDomainRoutes); change its settings,
 * delete it, verify it or apply its DNS records (write them at its DNS host, then verify: addDomainChangeRoutes).
 */
import type { Hono } from 'hono';
import { toPublicDomain } from '#shared/domain/domains/domain';
import { applyDnsSchema, domainActionSchema } from '#shared/domain/domains/schemas';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { parseWith, readJson } from '#shared/doors/http/request-validation';
import { applyDomainDns } from '#shared/usecases/domains/dns-apply';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain } from '#shared/usecases/domains/manage';
import { publicDomain, publicDomainPage } from '#shared/usecases/domains/public-domains';
import { verifyDomain } from '#shared/usecases/domains/verify';
import { domainOps } from './operations';
import type { DomainsServices } from './services';

export function addDomainRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

  route(domainOps.createDomain, async (c, { body }) => {
    return c.json({ domain: toPublicDomain(await createDomain(services, c.get('principal'), body)) }, 201);
  });

  route(domainOps.listDomains, async (c, { query }) => {
    return c.json(
      listPage('domains', await publicDomainPage(services, await listDomains(services, c.get('principal'), query, query.tenant))),
    );
  });

  route(domainOps.getDomain, async (c, { params }) => {
    return c.json({ domain: await publicDomain(services, await getDomain(services, c.get('principal'), params.id)) });
  });
}

export function addDomainChangeRoutes(app: Hono<ApiEnv>, services: DomainsServices): void {
  const route = routes(app);

  route(domainOps.updateDomain, async (c, { body, params }) => {
    return c.json({ domain: await publicDomain(services, await updateDomain(services, c.get('principal'), params.id, body)) });
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
      return c.json({ domain: await publicDomain(services, outcome.domain), apply: outcome.apply });
    }
    return c.json({ domain: await publicDomain(services, await verifyDomain(services, c.get('principal'), params.id)) });
  });
}
