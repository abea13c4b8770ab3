/**
 * The webhook router's use case: fan one service event out to every enabled endpoint of the account
 * subscribed to its type (and, for tenant-filtered endpoints, only email events of those tenants): one
 * delivery record and one queue message per (endpoint, event). The delivery record is created
 * conditionally, so a redelivered event is not delivered twice.
 *
 * An email event names its tenant by external_id, which a new tenant may take once the old one is
 * deleted: the event keeps its tenant only while the email's own tenant exists. Otherwise it is routed
 * and delivered with tenant null, as GET /emails shows such an email (docs/tenants.md), and reaches no
 * tenant-filtered endpoint (not even one of a new tenant with the same external_id).
 */
import { deliveryIdFor } from '../../domain/webhooks/delivery';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint';
import { webhookBody, type ServiceEvent } from '../../domain/webhooks/event';
import { isTenantScopedType } from '../../domain/webhooks/event-types';
import { takesDeliveries } from '../../domain/webhooks/listener';
import type { Clock } from '../../ports/clock';
import type { WebhookDeliveryQueue } from '../../ports/queues';
import type { EmailReads } from '../../adapters/store/emails/read';
import type { TenantRepository } from '../../adapters/store/tenants';
import type { WebhookDeliveryRepository } from '../../adapters/store/webhook-deliveries';
import type { WebhookRepository } from '../../adapters/store/webhooks';

/**
 * A delivery record found pending and never attempted is queued again only when it is at least this old:
 * its first routing then died between recording and queueing it (SQS brings the event back after its
 * visibility timeout). A younger one belongs to a routing that is alive, or whose message is on its way:
 * the same event published twice in quick succession (a repeated one-click unsubscribe, a republished
 * email.sent) must not make two first attempts. Whatever is left is the reconciler's (pending deliveries
 * past due are re-driven: docs/reliability.md).
 */
export const REQUEUE_PENDING_AFTER_MS = 30_000;

export interface RouteEventDeps {
  webhooks: Pick<WebhookRepository, 'listForAccount'>;
  /** The tenant an email event names, as of routing (one read, only when an endpoint takes the event). */
  tenants: Pick<TenantRepository, 'find'>;
  /** The email, read only when its tenant's external_id now names a tenant created after it. */
  emails: Pick<EmailReads, 'get'>;
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
 * A read shared by the events of one batch: the same arguments are read once however many events ask
 * (a failed read is forgotten, so the next event tries again). The events of one invocation were all
 * received at once, so sharing the read adds no staleness.
 */
function oncePerBatch<A extends string[], R>(read: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  const reads = new Map<string, Promise<R>>();
  return (...args) => {
    const key = args.join('\u0000');
    let pending = reads.get(key);
    if (!pending) {
      pending = read(...args);
      reads.set(key, pending);
      pending.catch(() => reads.delete(key));
    }
    return pending;
  };
}

/** One read of an account's endpoints per batch of events. */
export function endpointsOncePerBatch(webhooks: Pick<WebhookRepository, 'listForAccount'>): Pick<WebhookRepository, 'listForAccount'> {
  return { listForAccount: oncePerBatch((accountId: string) => webhooks.listForAccount(accountId)) };
}

/** One read of a tenant per batch of events (eventWithLiveTenant), however many of its emails' events the batch holds. */
export function tenantsOncePerBatch(tenants: Pick<TenantRepository, 'find'>): Pick<TenantRepository, 'find'> {
  return { find: oncePerBatch((accountId: string, ref: string) => tenants.find(accountId, ref)) };
}

/** The event as of now: an email event of a deleted tenant's email names no tenant (see above). */
export async function eventWithLiveTenant(deps: Pick<RouteEventDeps, 'tenants' | 'emails'>, event: ServiceEvent): Promise<ServiceEvent> {
  if (event.tenant === null || !isTenantScopedType(event.type)) return event;
  const stored = await deps.tenants.find(event.account_id, event.tenant);
  const gone = { ...event, tenant: null, data: { ...event.data, tenant: null } };
  // external_id is immutable: no tenant of that external_id now means the email's tenant was deleted.
  if (!stored || stored.deleting || stored.tenant.external_id !== event.tenant) return gone;
  // The usual case: the tenant is not newer than the email (data.created_at), so it is the email's own.
  const emailCreatedAt = Date.parse(String(event.data.created_at));
  if (!(Date.parse(stored.tenant.created_at) > emailCreatedAt)) return event;
  // Newer: it may have reused the external_id (or the clocks differ). The email says which tenant was its own.
  const email = typeof event.data.email_id === 'string' ? await deps.emails.get(event.data.email_id) : null;
  if (!email || email.email.account_id !== event.account_id) return event; // a test event's example email
  return email.email.tenant_id === stored.tenant.id ? event : gone;
}

/**
 * An event naming `webhook_ids` (an inbound route's choice) goes to those of the subscribed endpoints only.
 * Returns how many deliveries it queued (a pull endpoint's delivery is not queued: it waits in the endpoint's
 * feed for its listener, and only while a listener reads it: shared/domain/webhooks/listener.ts).
 */
export async function routeEvent(deps: RouteEventDeps, received: ServiceEvent): Promise<number> {
  const at = deps.clock.now();
  const candidates = (await deps.webhooks.listForAccount(received.account_id)).filter(
    (endpoint) =>
      endpoint.enabled &&
      endpoint.events.includes(received.type) &&
      takesDeliveries(endpoint, at) &&
      (received.webhook_ids === undefined || received.webhook_ids.includes(endpoint.id)),
  );
  if (candidates.length === 0) return 0;
  const event = await eventWithLiveTenant(deps, received);
  const endpoints = candidates.filter((endpoint) => subscribes(endpoint, event));
  const now = at.toISOString();
  const payload = webhookBody(event);
  let queued = 0;
  await Promise.all(
    endpoints.map(async (endpoint) => {
      const deliveryId = deliveryIdFor(event.id);
      const pull = endpoint.delivery === 'pull';
      const created = await deps.webhookDeliveries.create(
        {
          id: deliveryId,
          webhook_id: endpoint.id,
          account_id: event.account_id,
          event_id: event.id,
          event_type: event.type,
          payload,
          status: 'pending',
          attempts: [],
          next_attempt_at: pull ? null : now,
          created_at: now,
          updated_at: now,
        },
        { feed: pull },
      );
      // In the feed: the listener takes it from there (a redelivered event finds it there already).
      if (pull) return;
      if (!created) {
        // Seen before. If that first routing died before queueing, queue it now (the worker ignores
        // attempts that already happened).
        const existing = await deps.webhookDeliveries.get(endpoint.id, deliveryId);
        if (existing?.status !== 'pending' || existing.attempts.length > 0) return;
        if (Date.parse(now) - Date.parse(existing.created_at) < REQUEUE_PENDING_AFTER_MS) return;
      }
      await deps.webhookDeliveryQueue.enqueue({ webhook_id: endpoint.id, delivery_id: deliveryId, attempt: 1 }, 0);
      queued++;
    }),
  );
  return queued;
}
