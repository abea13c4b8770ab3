/**
 * The dashboard-domains function (docs/dashboard.md): the pages under /dashboard/domains
 * (./domain-pages.ts, on the dashboard's page library functions/api/dashboard/pages/), behind the dashboard's session; the main dashboard function
 * (functions/api/dashboard/app.ts) serves everything else.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import { addDomainPages } from './domain-pages';
import type { DashboardDomainsServices } from './services';

export function createDashboardDomainsApp(services: DashboardDomainsServices): Hono<ApiEnv> {
  const app = createDashboardFrame(services);
  app.route('/dashboard', createPages(services, [addDomainPages]));
  return app;
}
