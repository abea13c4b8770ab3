/**
 * The webhook delivery worker's use case: one signed POST of one delivery, logged; on failure the
 * next attempt is re-enqueued with the schedule's delay (0s, 5s, 30s, 2m, 2m), and after the last one
 * the delivery is failed. A deleted or disabled endpoint cancels its pending deliveries. Each attempt is
 * signed with the endpoint's secret, and with its previous one while a rotation's overlap lasts.
 */
import type { WebhookDeliveryMessage } from '../../domain/messages';
import type { DeliveryAttempt } from '../../domain/webhooks/delivery';
import { webhookSecretContext } from '../../domain/webhooks/endpoint';
import type { Clock } from '../../ports/clock';
import type { WebhookDeliveryQueue } from '../../ports/queues';
import type { SecretBox } from '../../ports/secret-box';
import type { WebhookDeliveryRepository } from '../../adapters/store/webhook-deliveries';
import { isSuccessfulSend, type WebhookSender } from '../../ports/webhook-sender';
import { signatureHeaders } from '../../domain/webhooks/signing';
import { previousSecretSigns } from '../../domain/webhooks/secret-rotation';

export interface DeliverWebhookDeps {
  webhookDeliveries: WebhookDeliveryRepository;
  webhookDeliveryQueue: WebhookDeliveryQueue;
  webhookSender: WebhookSender;
  secretBox: SecretBox;
  clock: Clock;
  /** Delay before each retry; its length is the number of retries. */
  retryDelays: number[];
}

export type DeliverWebhookResult = 'succeeded' | 'retrying' | 'failed' | 'cancelled' | 'skipped';

export async function deliverWebhook(deps: DeliverWebhookDeps, message: WebhookDeliveryMessage): Promise<DeliverWebhookResult> {
  // The delivery and its endpoint, read together (one round trip before the POST).
  const { delivery, stored } = await deps.webhookDeliveries.getWithEndpoint(message.webhook_id, message.delivery_id);
  // Gone (expired), finished, or this attempt already happened (a duplicate message).
  if (delivery?.status !== 'pending' || delivery.attempts.length >= message.attempt) return 'skipped';
  // A pull endpoint's listener forwards its deliveries itself (./listener-feed.ts): nothing is POSTed from here.
  if (stored?.endpoint.delivery === 'pull') return 'skipped';
  if (!stored?.endpoint.enabled) {
    await deps.webhookDeliveries.cancel(message.webhook_id, message.delivery_id, deps.clock.now().toISOString());
    return 'cancelled';
  }
  const started = deps.clock.now();
  // The previous secret signs too while a rotation's overlap lasts (docs/webhooks.md, "Rotating the secret").
  const sealed = [
    stored.sealedSecret,
    ...(stored.previousSealedSecret && previousSecretSigns(stored.endpoint, started) ? [stored.previousSealedSecret] : []),
  ];
  const secrets = await Promise.all(sealed.map((one) => deps.secretBox.open(one, webhookSecretContext(stored.endpoint.id))));
  const headers = signatureHeaders({
    secrets,
    webhookId: delivery.event_id,
    timestamp: Math.floor(started.getTime() / 1000),
    body: delivery.payload,
  });
  const result = await deps.webhookSender.send({ url: stored.endpoint.url, headers, body: delivery.payload });
  const attempt: DeliveryAttempt = {
    attempt: message.attempt,
    at: started.toISOString(),
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error: result.error,
    response_excerpt: result.responseExcerpt,
  };
  if (isSuccessfulSend(result)) {
    await deps.webhookDeliveries.recordAttempt(message.webhook_id, message.delivery_id, attempt, {
      status: 'succeeded',
      nextAttemptAt: null,
    });
    return 'succeeded';
  }
  const retriesDone = message.attempt - 1 - (message.retry_base ?? 0);
  if (retriesDone >= deps.retryDelays.length) {
    await deps.webhookDeliveries.recordAttempt(message.webhook_id, message.delivery_id, attempt, { status: 'failed', nextAttemptAt: null });
    return 'failed';
  }
  const delay = deps.retryDelays[retriesDone]!;
  const nextAttemptAt = new Date(deps.clock.now().getTime() + delay * 1000).toISOString();
  // Queue the retry first: if logging the attempt then fails, the retry still happens.
  await deps.webhookDeliveryQueue.enqueue(
    {
      webhook_id: message.webhook_id,
      delivery_id: message.delivery_id,
      attempt: message.attempt + 1,
      ...(message.retry_base ? { retry_base: message.retry_base } : {}),
    },
    delay,
  );
  await deps.webhookDeliveries.recordAttempt(message.webhook_id, message.delivery_id, attempt, { status: 'pending', nextAttemptAt });
  return 'retrying';
}
