/** Webhook delivery: one signed POST per message; retries are re-enqueued with the schedule's delays. */
import { isIPv6 } from 'node:net';
import type { SQSHandler } from 'aws-lambda';
import { webhookDeliveryMessageSchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { deliverWebhook } from '#shared/usecases/webhooks/deliver-webhook';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { senderFromEnv } from '#shared/adapters/webhooks/http-sender';
import { buildPlatform } from '#shared/services/platform';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildMessaging } from '#shared/services/messaging';
import { buildSecrets } from '#shared/services/secrets';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const services = { ...platform, ...buildWebhooks(platform), ...buildMessaging(platform), ...buildSecrets(platform) };
// With DNS_RESOLVERS set, hosts resolve through them (as at creation); otherwise the system's lookup.
const webhookSender = senderFromEnv(
  process.env,
  platform.config.dnsResolvers
    ? async (host) => (await services.dns.resolveAddresses(host)).map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }))
    : undefined,
);

export const handler: SQSHandler = forEachRecord('webhook-delivery', webhookDeliveryMessageSchema, async (message) => {
  const result = await deliverWebhook({ ...services, webhookSender, retryDelays: services.config.webhookRetryDelays }, message);
  logInfo('webhook-delivery', { delivery_id: message.delivery_id, webhook_id: message.webhook_id, attempt: message.attempt, result });
});
