/** The domains group: add, list, read, change settings, delete, verify (and apply: not configured yet). */
import type { Hono } from 'hono';
import { toPublicDomain } from '../../../shared/domain/domains/domain';
import { createDomainSchema, domainActionSchema, listDomainsQuerySchema, updateDomainSchema } from '../../../shared/domain/domains/schemas';
import { AppError } from '../../../shared/domain/errors';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { Services } from '../../../shared/services';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain, verifyDomain } from '../../../shared/usecases/domains';

export function createDomainsApp(services: Services): Hono<ApiEnv> {
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
    const { action } = await jsonBody(c, domainActionSchema);
    if (action === 'apply') {
      // Make sure the domain exists (404 first), then say the integration is not there yet.
      await getDomain(services, c.get('principal'), c.req.param('id'));
      throw new AppError(501, 'not_configured', 'Writing DNS records through a DNS host is not configured on this server yet.', {
        hint: 'Publish the records in domain.records at your DNS host, then call this endpoint with {"action": "verify"}.',
      });
    }
    return c.json({ domain: toPublicDomain(await verifyDomain(services, c.get('principal'), c.req.param('id'))) });
  });

  return app;
}
