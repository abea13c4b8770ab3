/**
 * Tenant events: the table's stream (writes of tenant items, filtered by the event source) ->
 * tenant.paused / tenant.resumed on the webhook events queue. Partial failures resume at the first
 * record not published.
 */
import { loadConfig } from '#shared/config/config';
import { logError, logInfo } from '#shared/lib/log';
import { statusChanges } from '#shared/adapters/store/account-status-changes';
import { publishTenantEvents } from '#shared/usecases/tenants/publish-tenant-events';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { buildQueues } from '#shared/services/messaging';

// The composition root: the one queue the worker sends to (no table client: it reads only its stream records).
const deps = buildQueues(loadConfig(), ['events']);

export const handler = forEachStreamBatch('tenant-events', statusChanges, async (items) => {
  const result = await publishTenantEvents(deps, items);
  if (result.failure) logError('tenant-events: batch stopped', new Error(result.failure), { records: items.length, done: result.done });
  else if (result.published > 0) logInfo('tenant-events', { records: items.length, published: result.published });
  return { done: result.done };
});
