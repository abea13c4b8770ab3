/**
 * Tenant events: the table's stream (writes of tenant items, filtered by the event source) ->
 * tenant.paused / tenant.resumed on the webhook events queue. Partial failures resume at the first
 * record not published.
 */
import { logError, logInfo } from '#shared/lib/log';
import { statusChanges } from '#shared/adapters/store/account-status-changes';
import { publishTenantEvents } from '#shared/usecases/tenants/publish-tenant-events';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { buildQueues } from '#shared/services/messaging';
import { buildPlatform } from '#shared/services/platform';

// The composition root: the one queue the worker sends to (the table only for whether an account has a webhook endpoint).
const deps = buildQueues(buildPlatform(), ['events']);

export const handler = forEachStreamBatch('tenant-events', statusChanges, async (items) => {
  const result = await publishTenantEvents(deps, items);
  if (result.failure) logError('tenant-events: batch stopped', new Error(result.failure), { records: items.length, done: result.done });
  else if (result.published > 0) logInfo('tenant-events', { records: items.length, published: result.published });
  return { done: result.done };
});
