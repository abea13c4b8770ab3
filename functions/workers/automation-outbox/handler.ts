/**
 * Automation outbox: the table's stream (run items, filtered by the event source) -> the automation-steps
 * queue (a step left pending) and the webhook events queue (automation.*). See shared/usecases/automations/runs/relay-runs.ts.
 */
import { logInfo } from '#shared/lib/log';
import { runWrites } from '#shared/adapters/store/run-changes';
import { relayRuns } from '#shared/usecases/automations/runs/relay-runs';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { buildQueues } from '#shared/services/messaging';
import { buildPlatform } from '#shared/services/platform';

// The composition root: the two queues the relay sends to (the table only for whether an account has a webhook endpoint).
const deps = buildQueues(buildPlatform(), ['stepQueue', 'events']);

export const handler = forEachStreamBatch('automation-outbox', runWrites, async (items) => {
  const result = await relayRuns(deps, items);
  logInfo('automation-outbox', { records: items.length, enqueued: result.enqueued, published: result.published });
  return { done: result.done };
});
