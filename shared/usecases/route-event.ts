/**
 * The webhook router's use case: fan one service event out to every enabled endpoint of the account
 * subscribed to its type (and, for tenant-filtered endpoints, only email events of those tenants): one
 * delivery record and one queue message per (endpoint, event). The delivery record is created
 * conditionally, so a redelivered event is not delivered twice.
 */
import { deliveryIdFor } from '../domain/webhooks/delivery';
import type { WebhookEndpoint } from '../domain/webhooks/endpoint';
import { webhookBody, type ServiceEvent } from '../domain/webhooks/event';
import { isTenantScopedType } from '../domain/webhooks/event-types';
import type { Clock, WebhookDeliveryQueue } from '../ports';
import type { WebhookDeliveryRepository } from '../store/webhook-deliveries';
import type { WebhookRepository } from '../store/webhooks';

export interface RouteEventDeps {
  webhooks: Pick<WebhookRepository, 'listForAccount'>;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookDeliveryQueue: WebhookDeliveryQueue;
  clock: Clock;
}

/** Whether an endpoint takes this event (spec: tenant filters receive only email events of those tenants). */
export function subscribes(endpoint: WebhookEndpoint, event: ServiceEvent): boolean {
  if (!endpoint.enabled || !endpoint.events.includes(event.type)) return false;
  if (endpoint.tenants === null) return true;
  return isTenantScopedType(event.type) && event.tenant !== null && endpoint.tenants.includes(event.tenant);
}

/**
 * One read of an account's endpoints per batch of events, however many of its events the batch holds:
 * the events of one invocation were all received at once, so sharing the read adds no staleness.
 */
export function endpointsOncePerBatch(webhooks: Pick<WebhookRepository, 'listForAccount'>): Pick<WebhookRepository, 'listForAccount'> {
  const reads = new Map<string, Promise<WebhookEndpoint[]>>();
  return {
    listForAccount: (accountId) => {
      let read = reads.get(accountId);
      if (!read) {
        read = webhooks.listForAccount(accountId);
        reads.set(accountId, read);
        read.catch(() => reads.delete(accountId));
      }
      return read;
    },
  };
}

export async function routeEvent(deps: RouteEventDeps, event: ServiceEvent): Promise<number> {
  const endpoints = (await deps.webhooks.listForAccount(event.account_id)).filter((endpoint) => subscribes(endpoint, event));
  const now = deps.clock.now().toISOString();
  const payload = webhookBody(event);
  let queued = 0;
  await Promise.all(
    endpoints.map(async (endpoint) => {
      const deliveryId = deliveryIdFor(event.id);
      const created = await deps.webhookDeliveries.create({
        id: deliveryId,
        webhook_id: endpoint.id,
        account_id: event.account_id,
        event_id: event.id,
        event_type: event.type,
        payload,
        status: 'pending',
        attempts: [],
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      });
      if (!created) {
        // Seen before. If that first routing died before queueing, queue it now (the worker ignores
        // attempts that already happened).
        const existing = await deps.webhookDeliveries.get(endpoint.id, deliveryId);
        if (!existing || existing.status !== 'pending' || existing.attempts.length > 0) return;
      }
      await deps.webhookDeliveryQueue.enqueue({ webhook_id: endpoint.id, delivery_id: deliveryId, attempt: 1 }, 0);
      queued++;
    }),
  );
  return queued;
}
