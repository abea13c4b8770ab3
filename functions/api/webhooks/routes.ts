/**
 * The webhooks routes (endpoints: create with the signing secret shown once, list, read, change, delete;
 * an endpoint's delivery log; replaying a failed or cancelled delivery), on any app whose authentication
 * sets the principal: the webhooks group (API keys, ./app.ts) and the dashboard's /api/webhooks (session
 * cookie + CSRF, functions/api/dashboard/app.ts). One copy of the routes, two doors.
 */
import type { Hono } from 'hono';
import type { WebhookDelivery } from '../../../shared/domain/webhooks/delivery';
import { toPublicWebhook } from '../../../shared/domain/webhooks/endpoint';
import { createWebhookSchema, updateWebhookSchema } from '../../../shared/domain/webhooks/schemas';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { Services } from '../../../shared/services';
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

/** The exact body sent, as JSON (it is always a JSON object we wrote; a string if it somehow is not). */
function parsedPayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

export function toPublicDelivery(delivery: WebhookDelivery) {
  return {
    object: 'webhook_delivery' as const,
    id: delivery.id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.next_attempt_at,
    payload: parsedPayload(delivery.payload),
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}

export function addWebhookRoutes(app: Hono<ApiEnv>, services: Services): void {
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
