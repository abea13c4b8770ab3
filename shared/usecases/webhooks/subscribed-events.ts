/**
 * Service events only for accounts that can receive them: an event of an account with no webhook endpoint is not
 * published (no message on the webhook events queue, no router invocation, no read of its endpoints), since the
 * router would find no endpoint for it. Every publisher (send worker, SES events, outbox, inbound, tracking,
 * tenants, domains, automations, the reconciler) goes through this one wrapper, built with the events queue
 * (shared/services/messaging.ts).
 *
 * What an account sees: an endpoint receives the events that happen once it exists, as before. An event that
 * happens in the moment the account's first endpoint is created may not reach it when a warm process read "no
 * endpoint" less than HOT_LOOKUPS_CACHE_MS before (1 s on AWS; never on the local cloud): docs/webhooks.md.
 */
import type { ServiceEventMessage } from '../../domain/messages';
import type { EventPublisher } from '../../ports/events';

export interface EndpointPresence {
  /** The accounts among these with at least one webhook endpoint. */
  accountsWithEndpoints(accountIds: readonly string[]): Promise<Set<string>>;
}

/** `inner`, publishing only the events of accounts with an endpoint (in their order); nothing at all when none has one. */
export function publishToSubscribers(inner: EventPublisher, presence: EndpointPresence): EventPublisher {
  return {
    async publish(events: ServiceEventMessage[]): Promise<void> {
      if (events.length === 0) return;
      const withEndpoints = await presence.accountsWithEndpoints(events.map((event) => event.account_id));
      const wanted = events.filter((event) => withEndpoints.has(event.account_id));
      if (wanted.length > 0) await inner.publish(wanted);
    },
  };
}
