/**
 * The tenants group: create, list, read, change (pause, resume, settings) and delete tenants. Every
 * route needs a full-access key; a key limited to a tenant may read only its own tenant.
 */
import type { Hono } from 'hono';
import { NotFoundError } from '../../../shared/domain/errors';
import { createTenantSchema, listTenantsQuerySchema, updateTenantSchema } from '../../../shared/domain/tenants/schemas';
import { EXTERNAL_ID_PATTERN, publicTenant } from '../../../shared/domain/tenants/tenant';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { Services } from '../../../shared/services';
import { createTenant, deleteTenant, getTenant, listTenants, updateTenant } from '../../../shared/usecases/tenants';

export function createTenantsApp(services: Services): Hono<ApiEnv> {
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

  return app;
}
