/** Webhook router: service events -> one delivery per subscribed endpoint. */
import type { SQSHandler } from 'aws-lambda';
import { serviceEventSchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildMessaging } from '#shared/services/messaging';
import { endpointsOncePerBatch, routeEvent, tenantsOncePerBatch } from '#shared/usecases/webhooks/route-event';
import { forEachRecord } from '#shared/doors/worker/for-each-record';

// The composition root: only what the worker uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const services = { ...core, ...buildMessaging(config) };

export const handler: SQSHandler = (event) => {
  // Endpoints (per account) and tenants (per tenant) are read once per batch (its events were received together).
  const deps = { ...services, webhooks: endpointsOncePerBatch(services.webhooks), tenants: tenantsOncePerBatch(services.tenants) };
  return forEachRecord('webhook-router', serviceEventSchema, async (serviceEvent) => {
    const queued = await routeEvent(deps, serviceEvent);
    logInfo('webhook-router', { event_id: serviceEvent.id, type: serviceEvent.type, queued });
  })(event);
};
