/**
 * The main dashboard function (docs/dashboard.md): everything a browser does with a session cookie
 * instead of an API key, except the pages of two areas that have functions of their own, so that no
 * function bundles every AWS client (infra/definitions/api-groups.ts): the emails and received-email pages
 * (functions/api/dashboard-emails: the mail bucket, the send core) and the domain pages
 * (functions/api/dashboard-domains: SES identities, DNS apply). API Gateway sends each its paths; the
 * pages share one library (./pages/) and one session.
 *
 * Its routes: `ANY /dashboard`, `ANY /dashboard/{proxy+}` (sign-in, sign-out, who am I: ./session-routes.ts;
 * sign-in with OpenID Connect: ./oidc-routes.ts;
 * the team's doors and the invitation's accept page: ./team-routes.ts; the other areas' pages and the assets: ./pages/) and `ANY /api/{proxy+}` (the spec's /api/events and
 * /api/webhooks: ./api-routes.ts), and the audit log's page (./pages/audit-log.ts).
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { createDashboardFrame } from './frame';
import type { DashboardServices } from './services';
import { createSessionApi } from './api-routes';
import { createDashboardPages } from './pages';
import { SESSION_API_BASE } from './pages/doors';
import { addOidcRoutes } from './oidc-routes';
import { addSessionRoutes } from './session-routes';
import { addTeamRoutes } from './team-routes';

export function createDashboardApp(services: DashboardServices): Hono<ApiEnv> {
  const app = createDashboardFrame(services);
  // Sign-ins are recorded by the sign-in use case (docs/audit-log.md), with the services' audit log.
  addSessionRoutes(app, services);
  // Sign-in with the deployment's OpenID Connect provider, when it has one (./oidc-routes.ts).
  addOidcRoutes(app, services);
  addTeamRoutes(app, services);
  app.route('/dashboard', createDashboardPages(services));
  app.route(SESSION_API_BASE, createSessionApi(services));
  return app;
}
