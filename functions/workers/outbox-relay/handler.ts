/**
 * Outbox relay: the table's stream (INSERTed email items, filtered by the event source) -> the send
 * queue and the webhook events queue (email.scheduled, email.suppressed), plus the deferred usage counts. Partial batch failures resume at the first record not done.
 */
import { logError, logInfo } from '#shared/lib/log';
import { emailAcceptances } from '#shared/adapters/store/email-acceptance-changes';
import { relayOutbox } from '#shared/usecases/delivery/relay-outbox';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { buildQueues } from '#shared/services/messaging';
import { buildPlatform } from '#shared/services/platform';
import { buildUsage } from '#shared/services/usage';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const deps = { ...buildQueues(platform, ['sendQueue', 'events']), usage: buildUsage(platform).deferredUsage };

export const handler = forEachStreamBatch('outbox-relay', emailAcceptances, async (items) => {
  const result = await relayOutbox(deps, items);
  if (result.failure) {
    logError('outbox-relay: batch stopped', new Error(result.failure), {
      records: items.length,
      done: result.done,
      sequence_number: items[result.done]?.sequenceNumber,
    });
  } else {
    logInfo('outbox-relay', { records: items.length, enqueued: result.enqueued, published: result.published, counters: result.counted });
  }
  return { done: result.done };
});
