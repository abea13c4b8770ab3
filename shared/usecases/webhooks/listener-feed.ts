/**
 * A pull endpoint's door (shared/domain/webhooks/listener.ts): its listener reads the events feed (the
 * deliveries waiting for it, oldest first) and reports what its local URL answered for each, which takes
 * the delivery out of the feed into the endpoint's delivery log as an attempt, as a push delivery's.
 */
import { ConflictError } from '../../domain/errors';
import type { WebhookDelivery, DeliveryAttempt } from '../../domain/webhooks/delivery';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint';
import { listenerSucceeded, PULL_MARK_EVERY_MS, pullMarkDue, type ListenerResult } from '../../domain/webhooks/listener';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { WebhookDeliveryRepository } from '../../adapters/store/webhook-deliveries';
import type { WebhookRepository } from '../../adapters/store/webhooks';
import type { Principal } from '../access/principal';
import { assertVisible } from '../access/visibility';
import { accountKeyOnly, owned } from './webhooks';

export interface ListenerFeedDeps {
  webhooks: Pick<WebhookRepository, 'get' | 'markPulled'>;
  webhookDeliveries: Pick<WebhookDeliveryRepository, 'listFeed' | 'get' | 'getWithEndpoint' | 'recordAttempt'>;
  clock: Clock;
}

/** The endpoint as read, which must be a pull one (409 for a push endpoint: it has no feed). */
function pullEndpointOf(endpoint: WebhookEndpoint, webhookId: string): WebhookEndpoint {
  if (endpoint.delivery !== 'pull') {
    throw new ConflictError(
      `Webhook ${webhookId} delivers by push: the service POSTs its events to its url, so it has no feed.`,
      'conflict',
      {
        details: { delivery: endpoint.delivery },
        hint: 'Create an endpoint with "delivery": "pull" (what `mailservice listen` does) to read its events yourself.',
      },
    );
  }
  return endpoint;
}

/** The caller's endpoint, which must be a pull one. */
async function pullEndpoint(deps: ListenerFeedDeps, principal: Principal, webhookId: string): Promise<WebhookEndpoint> {
  return pullEndpointOf((await owned(deps, principal, webhookId)).endpoint, webhookId);
}

/**
 * One page of the feed, oldest first. The read is recorded on the endpoint at most once a minute: the router
 * stops filling the feed of an endpoint nobody has read for 10 minutes (LISTENER_IDLE_MS).
 */
export async function readListenerFeed(
  deps: ListenerFeedDeps,
  principal: Principal,
  webhookId: string,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  const endpoint = await pullEndpoint(deps, principal, webhookId);
  const now = deps.clock.now();
  if (pullMarkDue(endpoint, now)) {
    // Best effort: a lost record only makes the router skip the endpoint sooner, never loses a delivery made.
    await deps.webhooks
      .markPulled(endpoint.account_id, endpoint.id, now.toISOString(), new Date(now.getTime() - PULL_MARK_EVERY_MS).toISOString())
      .catch((error) => logError('listener feed: could not record the read', error, { webhook_id: endpoint.id }));
  }
  return deps.webhookDeliveries.listFeed(webhookId, page);
}

function reportedAlready(delivery: WebhookDelivery): ConflictError {
  return new ConflictError(
    `Delivery ${delivery.id} is no longer in the feed (${delivery.status}): its result was reported already.`,
    'conflict',
    {
      details: { status: delivery.status },
      hint: 'Replay it (POST /webhooks/{id}/deliveries/{delivery_id}/replay) to put it back in the feed.',
    },
  );
}

/**
 * The listener's report of one forward: an attempt in the delivery's log, succeeded on a 2xx and failed
 * otherwise (the listener does not retry: replaying puts it back in the feed). Exactly once: a second report
 * of the same delivery answers 409.
 */
export async function reportListenerResult(
  deps: ListenerFeedDeps,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
  result: ListenerResult,
): Promise<WebhookDelivery> {
  // The endpoint and the delivery in one read (the delivery worker's BatchGetItem), checked as owned() checks.
  accountKeyOnly(principal);
  const { delivery: read, stored } = await deps.webhookDeliveries.getWithEndpoint(webhookId, deliveryId);
  pullEndpointOf(assertVisible(principal, stored?.endpoint, 'Webhook', webhookId), webhookId);
  const delivery = assertVisible(principal, read, 'Webhook delivery', deliveryId);
  if (delivery.status !== 'pending') throw reportedAlready(delivery);
  const at = deps.clock.now().toISOString();
  const attempt: DeliveryAttempt = {
    attempt: delivery.attempts.length + 1,
    at,
    status_code: result.status_code,
    duration_ms: Math.round(result.duration_ms),
    error: result.error,
    response_excerpt: result.response_excerpt,
  };
  const status = listenerSucceeded(result) ? 'succeeded' : 'failed';
  const recorded = await deps.webhookDeliveries.recordAttempt(
    webhookId,
    deliveryId,
    attempt,
    { status, nextAttemptAt: null },
    { fromFeed: true },
  );
  if (!recorded) {
    // Reported (or replayed and reported) by another request since it was read.
    const current = await deps.webhookDeliveries.get(webhookId, deliveryId);
    throw reportedAlready(current ?? delivery);
  }
  return { ...delivery, status, attempts: [...delivery.attempts, attempt], next_attempt_at: null, updated_at: at };
}
