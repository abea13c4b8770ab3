/**
 * The dashboard-invitations function (docs/dashboard.md, "Teams and roles"): the members page's invite form
 * (./invitation-pages.ts: it may email the invitation through the send core), behind the dashboard's
 * session; the main dashboard function (functions/api/dashboard/app.ts) serves the members page itself.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '../../../shared/doors/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import { addInvitationPages } from './invitation-pages';
import type { DashboardInvitationsServices } from './services';

export function createDashboardInvitationsApp(services: DashboardInvitationsServices): Hono<ApiEnv> {
  const app = createDashboardFrame();
  app.route('/dashboard', createPages(services, [addInvitationPages]));
  return app;
}
