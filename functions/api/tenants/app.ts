/**
 * The tenants group: create, list, read, change (pause, resume, settings) and delete tenants, and a
 * tenant's domains (give an account domain to it, list them, return one to the account). Every route
 * needs a full-access key; a key limited to a tenant may read only its own tenant and its domains.
 */
import type { Hono } from 'hono';
import { NotFoundError } from '#shared/domain/errors';
import { EXTERNAL_ID_PATTERN, publicTenant } from '#shared/domain/tenants/tenant';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { tenantOps } from './operations';
import type {
  AccessServices,
  DomainServices,
  EmailServices,
  LinkDomainServices,
  Platform,
  SesServices,
  TenantCleanupServices,
  TenantServices,
  UsageServices,
} from '#shared/services';
import { publicDomain, publicDomainPage } from '#shared/usecases/domains/public-domains';
import { giveDomainToTenant, listTenantDomains, returnDomainToAccount } from '#shared/usecases/domains/tenant-domains';
import { getTenantStats } from '#shared/usecases/tenants/get-tenant-stats';
import { createTenant, deleteTenant, getTenant, listTenants, updateTenant } from '#shared/usecases/tenants/tenants';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type TenantsServices = Platform &
  AccessServices &
  SesServices &
  TenantCleanupServices &
  TenantServices &
  DomainServices &
  EmailServices &
  UsageServices &
  LinkDomainServices;

export function createTenantsApp(services: TenantsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app);
  /** `{tenant}`: an external_id or id; anything that cannot be one names no tenant (404). */
  const ref = (value: string) => {
    if (!EXTERNAL_ID_PATTERN.test(value)) throw new NotFoundError('Tenant', JSON.stringify(value.slice(0, 128)));
    return value;
  };

  route(tenantOps.createTenant, async (c, { body }) => {
    return c.json({ tenant: publicTenant(await createTenant(services, c.get('principal'), body)) }, 201);
  });

  route(tenantOps.listTenants, async (c, { query }) => {
    return c.json(listPage('tenants', await listTenants(services, c.get('principal'), query, query.status), publicTenant));
  });

  route(tenantOps.getTenant, async (c, { params }) => {
    return c.json({ tenant: publicTenant(await getTenant(services, c.get('principal'), ref(params.tenant))) });
  });

  route(tenantOps.updateTenant, async (c, { body, params }) => {
    return c.json({ tenant: publicTenant(await updateTenant(services, c.get('principal'), ref(params.tenant), body)) });
  });

  route(tenantOps.deleteTenant, async (c, { params }) => {
    const tenant = await deleteTenant(services, c.get('principal'), ref(params.tenant));
    return c.json({ id: tenant.id, object: 'tenant' as const, external_id: tenant.external_id, deleted: true });
  });

  route(tenantOps.getTenantStats, async (c, { query, params }) => {
    return c.json(await getTenantStats(services, c.get('principal'), ref(params.tenant), query.days));
  });

  route(tenantOps.giveDomainToTenant, async (c, { body, params }) => {
    return c.json({
      domain: await publicDomain(services, await giveDomainToTenant(services, c.get('principal'), ref(params.tenant), body)),
    });
  });

  route(tenantOps.listTenantDomains, async (c, { query, params }) => {
    const page = await listTenantDomains(services, c.get('principal'), ref(params.tenant), query);
    return c.json(listPage('domains', await publicDomainPage(services, page)));
  });

  route(tenantOps.returnDomainToAccount, async (c, { params }) => {
    const domain = await returnDomainToAccount(services, c.get('principal'), ref(params.tenant), params.domain);
    return c.json({ domain: await publicDomain(services, domain) });
  });

  return app;
}
