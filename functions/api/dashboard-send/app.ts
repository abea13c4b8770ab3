/**
 * The dashboard-send function (docs/dashboard.md): the dashboard's forms that send through the send core,
 * behind the dashboard's session: the emails page's test send (./test-send.ts) and the members page's invite
 * form (./invitation-pages.ts: it may email the invitation). The pages themselves are the other functions'.
 */
import type { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { createDashboardFrame } from '../dashboard/frame';
import { createPages } from '../dashboard/pages';
import { addInvitationPages } from './invitation-pages';
import { addTestSend } from './test-send';
import type { DashboardSendServices } from './services';

export function createDashboardSendApp(services: DashboardSendServices): Hono<ApiEnv> {
  const app = createDashboardFrame(services);
  app.route('/dashboard', createPages(services, [addTestSend, addInvitationPages]));
  return app;
}
