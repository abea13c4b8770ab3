/**
 * The dashboard-emails function (docs/dashboard.md): the pages under /dashboard/emails and
 * /dashboard/received (functions/api/dashboard/pages/emails.ts and received.ts), behind the dashboard's
 * session; the main dashboard function (functions/api/dashboard/app.ts) serves everything else.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '../../../shared/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import { addEmailPages } from '../dashboard/pages/emails';
import { addReceivedPages } from '../dashboard/pages/received';
import type { DashboardEmailsServices } from './services';

export function createDashboardEmailsApp(services: DashboardEmailsServices): Hono<ApiEnv> {
  const app = createDashboardFrame();
  app.route('/dashboard', createPages(services, [addEmailPages, addReceivedPages]));
  return app;
}
