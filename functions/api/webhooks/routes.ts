/**
 * The webhooks routes (endpoints: create with the signing secret shown once, list, read, change, delete;
 * rotate the secret (the new one shown once) and stop the previous one;
 * an endpoint's delivery log; replaying a failed or cancelled delivery; a pull endpoint's feed and its
 * listener's reports), on any app whose authentication
 * sets the principal: the webhooks group (API keys, ./app.ts) and the dashboard's /api/webhooks (session
 * cookie + CSRF, functions/api/dashboard/app.ts). One copy of the routes, two doors.
 */
import type { Hono } from 'hono';
import { toPublicDelivery } from '#shared/domain/webhooks/delivery';
import { toPublicWebhook } from '#shared/domain/webhooks/endpoint';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { webhookOps } from './operations';
import type { WebhookDeps } from '#shared/usecases/webhooks/webhooks';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhookDelivery,
  updateWebhook,
} from '#shared/usecases/webhooks/webhooks';
import { expirePreviousWebhookSecret, rotateWebhookSecret } from '#shared/usecases/webhooks/rotate-secret';
import { readListenerFeed, reportListenerResult } from '#shared/usecases/webhooks/listener-feed';

export function addWebhookRoutes(app: Hono<ApiEnv>, services: WebhookDeps): void {
  const route = routes(app);

  route(webhookOps.createWebhook, async (c, { body }) => {
    const { webhook, secret } = await createWebhook(services, c.get('principal'), body);
    return c.json({ webhook: toPublicWebhook(webhook), secret }, 200);
  });

  route(webhookOps.listWebhooks, async (c, { query }) => {
    return c.json(listPage('webhooks', await listWebhooks(services, c.get('principal'), query), toPublicWebhook));
  });

  route(webhookOps.getWebhook, async (c, { params }) => {
    return c.json({ webhook: toPublicWebhook(await getWebhook(services, c.get('principal'), params.id)) });
  });

  // The spec answers PATCH with the webhook object itself (GET wraps it in {webhook}).
  route(webhookOps.updateWebhook, async (c, { body, params }) => {
    return c.json(toPublicWebhook(await updateWebhook(services, c.get('principal'), params.id, body)));
  });

  route(webhookOps.deleteWebhook, async (c, { params }) => {
    await deleteWebhook(services, c.get('principal'), params.id);
    return c.json({ ok: true });
  });

  route(webhookOps.rotateWebhookSecret, async (c, { body, params }) => {
    const { webhook, secret } = await rotateWebhookSecret(services, c.get('principal'), params.id, body);
    return c.json({ webhook: toPublicWebhook(webhook), secret }, 200);
  });

  route(webhookOps.expirePreviousWebhookSecret, async (c, { params }) => {
    return c.json({ webhook: toPublicWebhook(await expirePreviousWebhookSecret(services, c.get('principal'), params.id)) });
  });

  route(webhookOps.listWebhookDeliveries, async (c, { query, params }) => {
    return c.json(listPage('deliveries', await listWebhookDeliveries(services, c.get('principal'), params.id, query), toPublicDelivery));
  });

  route(webhookOps.getWebhookDelivery, async (c, { params }) => {
    return c.json({ delivery: toPublicDelivery(await getWebhookDelivery(services, c.get('principal'), params.id, params.deliveryId)) });
  });

  route(webhookOps.replayWebhookDelivery, async (c, { params }) => {
    return c.json(
      { delivery: toPublicDelivery(await replayWebhookDelivery(services, c.get('principal'), params.id, params.deliveryId)) },
      202,
    );
  });

  route(webhookOps.readWebhookFeed, async (c, { query, params }) => {
    return c.json(listPage('deliveries', await readListenerFeed(services, c.get('principal'), params.id, query), toPublicDelivery));
  });

  route(webhookOps.reportWebhookDeliveryResult, async (c, { body, params }) => {
    const delivery = await reportListenerResult(services, c.get('principal'), params.id, params.deliveryId, body);
    return c.json({ delivery: toPublicDelivery(delivery) });
  });
}
