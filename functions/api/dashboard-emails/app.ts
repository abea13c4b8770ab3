/**
 * The dashboard-emails function (docs/dashboard.md): the pages under /dashboard/emails and
 * /dashboard/received (./email-pages.ts and ./received-pages.ts, on the dashboard's page library), behind the dashboard's
 * session; the main dashboard function (functions/api/dashboard/app.ts) serves everything else.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import { addEmailPages } from './email-pages';
import { addReceivedPages } from './received-pages';
import type { DashboardEmailsServices } from './services';

export function createDashboardEmailsApp(services: DashboardEmailsServices): Hono<ApiEnv> {
  const app = createDashboardFrame(services);
  app.route('/dashboard', createPages(services, [addEmailPages, addReceivedPages]));
  return app;
}
