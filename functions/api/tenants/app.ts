/**
 * The tenants group: create, list, read, change (pause, resume, settings) and delete tenants, and a
 * tenant's domains (give an account domain to it, list them, return one to the account). Every route
 * needs a full-access key; a key limited to a tenant may read only its own tenant and its domains.
 */
import type { Hono } from 'hono';
import { toPublicDomain } from '../../../shared/domain/domains/domain';
import { assignTenantDomainSchema } from '../../../shared/domain/domains/schemas';
import { NotFoundError } from '../../../shared/domain/errors';
import { createTenantSchema, listTenantsQuerySchema, tenantStatsQuerySchema, updateTenantSchema } from '../../../shared/domain/tenants/schemas';
import { EXTERNAL_ID_PATTERN, publicTenant } from '../../../shared/domain/tenants/tenant';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { CoreServices, SesServices, TenantCleanupServices } from '../../../shared/services';
import { giveDomainToTenant, listTenantDomains, returnDomainToAccount } from '../../../shared/usecases/domains';
import { getTenantStats } from '../../../shared/usecases/get-tenant-stats';
import { createTenant, deleteTenant, getTenant, listTenants, updateTenant } from '../../../shared/usecases/tenants';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type TenantsServices = CoreServices & SesServices & TenantCleanupServices;

export function createTenantsApp(services: TenantsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const full = requireScope('full');
  /** `{tenant}`: an external_id or id; anything that cannot be one names no tenant (404). */
  const ref = (value: string) => {
    if (!EXTERNAL_ID_PATTERN.test(value)) throw new NotFoundError('Tenant', JSON.stringify(value.slice(0, 128)));
    return value;
  };

  app.post('/tenants', full, async (c) => {
    const tenant = await createTenant(services, c.get('principal'), await jsonBody(c, createTenantSchema));
    return c.json({ tenant: publicTenant(tenant) }, 201);
  });

  app.get('/tenants', full, async (c) => {
    const query = c.req.query();
    const page = parseWith(pageQuerySchema, query, 'query');
    const { status } = parseWith(listTenantsQuerySchema, query, 'query');
    const result = await listTenants(services, c.get('principal'), page, status);
    return c.json({ tenants: result.items.map(publicTenant), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.get('/tenants/:tenant', full, async (c) => {
    return c.json({ tenant: publicTenant(await getTenant(services, c.get('principal'), ref(c.req.param('tenant')))) });
  });

  app.patch('/tenants/:tenant', full, async (c) => {
    const changes = await jsonBody(c, updateTenantSchema);
    return c.json({ tenant: publicTenant(await updateTenant(services, c.get('principal'), ref(c.req.param('tenant')), changes)) });
  });

  app.delete('/tenants/:tenant', full, async (c) => {
    const tenant = await deleteTenant(services, c.get('principal'), ref(c.req.param('tenant')));
    return c.json({ id: tenant.id, object: 'tenant' as const, external_id: tenant.external_id, deleted: true });
  });

  app.get('/tenants/:tenant/stats', full, async (c) => {
    const { days } = parseWith(tenantStatsQuerySchema, c.req.query(), 'query');
    return c.json(await getTenantStats(services, c.get('principal'), ref(c.req.param('tenant')), days));
  });

  app.post('/tenants/:tenant/domains', full, async (c) => {
    const input = await jsonBody(c, assignTenantDomainSchema);
    const domain = await giveDomainToTenant(services, c.get('principal'), ref(c.req.param('tenant')), input);
    return c.json({ domain: toPublicDomain(domain) });
  });

  app.get('/tenants/:tenant/domains', full, async (c) => {
    const page = parseWith(pageQuerySchema, c.req.query(), 'query');
    const result = await listTenantDomains(services, c.get('principal'), ref(c.req.param('tenant')), page);
    return c.json({ domains: result.items.map(toPublicDomain), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.delete('/tenants/:tenant/domains/:domain', full, async (c) => {
    const domain = await returnDomainToAccount(services, c.get('principal'), ref(c.req.param('tenant')), c.req.param('domain'));
    return c.json({ domain: toPublicDomain(domain) });
  });

  return app;
}
