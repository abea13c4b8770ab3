/**
 * The dashboard group (docs/dashboard.md): everything a browser does with a session cookie instead of an
 * API key. Its routes (infra/definitions.ts): `ANY /dashboard`, `ANY /dashboard/{proxy+}` (sign-in,
 * sign-out, who am I: ./session-routes.ts; the pages and their assets: ./pages/) and `ANY /api/{proxy+}`
 * (the spec's /api/events and /api/webhooks: ./api-routes.ts). Answers are never cached (they carry CSRF
 * tokens and account data), except the content-hashed static assets, which say so themselves.
 */
import type { Hono } from 'hono';
import { createFrame } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import type { DashboardServices } from './services';
import { createSessionApi } from './api-routes';
import { createDashboardPages } from './pages';
import { addSessionRoutes } from './session-routes';

export function createDashboardApp(services: DashboardServices): Hono<ApiEnv> {
  const app = createFrame();
  app.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  addSessionRoutes(app, services);
  app.route('/dashboard', createDashboardPages(services));
  app.route('/api', createSessionApi(services));
  return app;
}
