/**
 * The dashboard-validations function (docs/dashboard.md): Validate addresses, /dashboard/validations
 * (./validation-pages.ts), on the dashboard's page library (functions/api/dashboard/pages/), behind the
 * dashboard's session.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import type { DashboardValidationsServices } from './services';
import { addValidationPages } from './validation-pages';

export function createDashboardValidationsApp(services: DashboardValidationsServices): Hono<ApiEnv> {
  const app = createDashboardFrame(services);
  app.route('/dashboard', createPages(services, [addValidationPages]));
  return app;
}
