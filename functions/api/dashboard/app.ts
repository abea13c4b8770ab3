/**
 * The dashboard group (docs/dashboard.md): everything a browser does with a session cookie instead of an
 * API key. Its routes (infra/definitions.ts): `ANY /dashboard`, `ANY /dashboard/{proxy+}` (sign-in,
 * sign-out, who am I: ./session-routes.ts; the pages come later) and `ANY /api/{proxy+}` (the spec's
 * /api/events and /api/webhooks: ./api-routes.ts). Answers are never cached (they carry CSRF tokens and
 * account data).
 */
import type { Hono } from 'hono';
import { createFrame } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import type { Services } from '../../../shared/services';
import { createSessionApi } from './api-routes';
import { addSessionRoutes } from './session-routes';

export function createDashboardApp(services: Services): Hono<ApiEnv> {
  const app = createFrame();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  addSessionRoutes(app, services);
  app.route('/api', createSessionApi(services));
  return app;
}
