/** The emails API group: send (one, batch: ./send-routes.ts), read (one, list), resend, reschedule/cancel (./email-routes.ts). */
import type { Hono } from 'hono';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { addEmailRoutes } from './email-routes';
import { addSendRoutes } from './send-routes';
import type { EmailsServices } from './services';

export type { EmailsServices } from './services';

/** POST /emails resolves its caller inside the send's first read (key, account and context in one round trip). */
const isSingleSend = (c: { req: { method: string; path: string } }) => c.req.method === 'POST' && c.req.path === '/emails';

export function createEmailsApp(services: EmailsServices): Hono<ApiEnv> {
  const app = createApi(services, { deferFor: isSingleSend });
  addSendRoutes(app, services);
  addEmailRoutes(app, services);
  return app;
}
