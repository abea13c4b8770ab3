/**
 * The webhooks group: the webhooks routes (./routes.ts) behind API-key authentication.
 */
import type { Hono } from 'hono';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import type { AccessServices, MessagingServices, Platform, SecretServices, TenantServices, WebhookServices } from '#shared/services';
import { addWebhookRoutes } from './routes';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type WebhooksServices = Platform & AccessServices & MessagingServices & SecretServices & TenantServices & WebhookServices;

export function createWebhooksApp(services: WebhooksServices): Hono<ApiEnv> {
  const app = createApi(services);
  addWebhookRoutes(app, services);
  return app;
}
