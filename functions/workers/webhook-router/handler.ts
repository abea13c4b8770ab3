/** Webhook router: service events -> one delivery per subscribed endpoint. */
import type { SQSHandler } from 'aws-lambda';
import { serviceEventSchema } from '../../../shared/domain/messages';
import { logInfo } from '../../../shared/log';
import { buildServices } from '../../../shared/services';
import { endpointsOncePerBatch, routeEvent, tenantsOncePerBatch } from '../../../shared/usecases/route-event';
import { forEachRecord } from '../../../shared/worker/for-each-record';

const services = buildServices();

export const handler: SQSHandler = (event) => {
  // Endpoints (per account) and tenants (per tenant) are read once per batch (its events were received together).
  const deps = { ...services, webhooks: endpointsOncePerBatch(services.webhooks), tenants: tenantsOncePerBatch(services.tenants) };
  return forEachRecord('webhook-router', serviceEventSchema, async (serviceEvent) => {
    const queued = await routeEvent(deps, serviceEvent);
    logInfo('webhook-router', { event_id: serviceEvent.id, type: serviceEvent.type, queued });
  })(event);
};
