/** Webhook router: service events -> one delivery per subscribed endpoint. */
import type { SQSHandler } from 'aws-lambda';
import { serviceEventSchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { endpointsOncePerBatch, routeEvent, tenantsOncePerBatch } from '#shared/usecases/webhooks/route-event';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { buildPlatform } from '#shared/services/platform';
import { buildTenants } from '#shared/services/tenants';
import { buildEmails } from '#shared/services/emails';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildMessaging } from '#shared/services/messaging';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const services = {
  ...platform,
  ...buildTenants(platform),
  ...buildEmails(platform),
  ...buildWebhooks(platform),
  ...buildMessaging(platform),
};

export const handler: SQSHandler = (event) => {
  // Endpoints (per account) and tenants (per tenant) are read once per batch (its events were received together).
  const deps = { ...services, webhooks: endpointsOncePerBatch(services.webhooks), tenants: tenantsOncePerBatch(services.tenants) };
  return forEachRecord('webhook-router', serviceEventSchema, async (serviceEvent) => {
    const queued = await routeEvent(deps, serviceEvent);
    logInfo('webhook-router', { event_id: serviceEvent.id, type: serviceEvent.type, queued });
  })(event);
};
