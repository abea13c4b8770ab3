/**
 * Events of the API path are published after what they describe is stored, with a few quick retries; a
 * failure after those is logged and does not fail the request (the email exists and will be sent). Not an
 * outbox: an SQS outage longer than the retries loses the event (documented in docs/webhooks.md).
 */
import type { ServiceEvent } from '../domain/webhooks/event';
import { logError } from '../log';
import type { EventPublisher } from '../ports';

export async function publishQuietly(events: EventPublisher, batch: ServiceEvent[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await events.publish(batch);
      return;
    } catch (error) {
      if (attempt >= 3) {
        logError('event publish failed', error, { event_ids: batch.map((event) => event.id) });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
