/**
 * The webhooks routes (endpoints: create with the signing secret shown once, list, read, change, delete;
 * an endpoint's delivery log; replaying a failed or cancelled delivery), on any app whose authentication
 * sets the principal: the webhooks group (API keys, ./app.ts) and the dashboard's /api/webhooks (session
 * cookie + CSRF, functions/api/dashboard/app.ts). One copy of the routes, two doors.
 */
import type { Hono } from 'hono';
import { toPublicDelivery } from '../../../shared/domain/webhooks/delivery';
import { toPublicWebhook } from '../../../shared/domain/webhooks/endpoint';
import { createWebhookSchema, updateWebhookSchema } from '../../../shared/domain/webhooks/schemas';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { WebhookDeps } from '../../../shared/usecases/webhooks';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhookDelivery,
  updateWebhook,
} from '../../../shared/usecases/webhooks';

export function addWebhookRoutes(app: Hono<ApiEnv>, services: WebhookDeps): void {
  const read = requireScope('webhooks:write', 'account:read');
  const write = requireScope('webhooks:write');

  app.post('/webhooks', write, async (c) => {
    const { webhook, secret } = await createWebhook(services, c.get('principal'), await jsonBody(c, createWebhookSchema));
    return c.json({ webhook: toPublicWebhook(webhook), secret }, 200);
  });

  app.get('/webhooks', read, async (c) => {
    const page = parseWith(pageQuerySchema, c.req.query(), 'query');
    const result = await listWebhooks(services, c.get('principal'), page);
    return c.json({ webhooks: result.items.map(toPublicWebhook), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.get('/webhooks/:id', read, async (c) => {
    return c.json({ webhook: toPublicWebhook(await getWebhook(services, c.get('principal'), c.req.param('id'))) });
  });

  // The spec answers PATCH with the webhook object itself (GET wraps it in {webhook}).
  app.patch('/webhooks/:id', write, async (c) => {
    const changes = await jsonBody(c, updateWebhookSchema);
    return c.json(toPublicWebhook(await updateWebhook(services, c.get('principal'), c.req.param('id'), changes)));
  });

  app.delete('/webhooks/:id', write, async (c) => {
    await deleteWebhook(services, c.get('principal'), c.req.param('id'));
    return c.json({ ok: true });
  });

  app.get('/webhooks/:id/deliveries', read, async (c) => {
    const page = parseWith(pageQuerySchema, c.req.query(), 'query');
    const result = await listWebhookDeliveries(services, c.get('principal'), c.req.param('id'), page);
    return c.json({ deliveries: result.items.map(toPublicDelivery), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.get('/webhooks/:id/deliveries/:deliveryId', read, async (c) => {
    const delivery = await getWebhookDelivery(services, c.get('principal'), c.req.param('id'), c.req.param('deliveryId'));
    return c.json({ delivery: toPublicDelivery(delivery) });
  });

  app.post('/webhooks/:id/deliveries/:deliveryId/replay', write, async (c) => {
    const delivery = await replayWebhookDelivery(services, c.get('principal'), c.req.param('id'), c.req.param('deliveryId'));
    return c.json({ delivery: toPublicDelivery(delivery) }, 202);
  });
}
