/**
 * The webhooks group: the webhooks routes (./routes.ts) behind API-key authentication.
 */
import type { Hono } from 'hono';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import type { Services } from '../../../shared/services';
import { addWebhookRoutes } from './routes';

export function createWebhooksApp(services: Services): Hono<ApiEnv> {
  const app = createApi(services);
  addWebhookRoutes(app, services);
  return app;
}
