/**
 * The dashboard-domains function (docs/dashboard.md): the pages under /dashboard/domains
 * (functions/api/dashboard/pages/domains.ts), behind the dashboard's session; the main dashboard function
 * (functions/api/dashboard/app.ts) serves everything else.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '../../../shared/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import { addDomainPages } from '../dashboard/pages/domains';
import type { DashboardDomainsServices } from './services';

export function createDashboardDomainsApp(services: DashboardDomainsServices): Hono<ApiEnv> {
  const app = createDashboardFrame();
  app.route('/dashboard', createPages(services, [addDomainPages]));
  return app;
}
