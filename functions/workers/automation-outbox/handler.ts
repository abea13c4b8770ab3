/**
 * Automation outbox: the table's stream (run items, filtered by the event source) -> the automation-steps
 * queue (a step left pending) and the webhook events queue (automation.*). See shared/usecases/automations/runs/relay-runs.ts.
 */
import { loadConfig } from '#shared/config/config';
import { logInfo } from '#shared/lib/log';
import { runWrites } from '#shared/adapters/store/run-changes';
import { relayRuns } from '#shared/usecases/automations/runs/relay-runs';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { buildQueues } from '#shared/services/messaging';

// The composition root: the two queues the relay sends to (no table client: it reads only its stream records).
const deps = buildQueues(loadConfig(), ['stepQueue', 'events']);

export const handler = forEachStreamBatch('automation-outbox', runWrites, async (items) => {
  const result = await relayRuns(deps, items);
  logInfo('automation-outbox', { records: items.length, enqueued: result.enqueued, published: result.published });
  return { done: result.done };
});
