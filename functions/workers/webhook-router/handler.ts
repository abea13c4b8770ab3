/** Webhook router: service events -> one delivery per subscribed endpoint. */
import type { SQSHandler } from 'aws-lambda';
import { serviceEventSchema } from '../../../shared/domain/messages';
import { logInfo } from '../../../shared/log';
import { buildServices } from '../../../shared/services';
import { endpointsOncePerBatch, routeEvent } from '../../../shared/usecases/route-event';
import { forEachRecord } from '../../../shared/worker/for-each-record';

const services = buildServices();

export const handler: SQSHandler = (event) => {
  // Endpoints are read once per account per batch (the batch's events were received together).
  const deps = { ...services, webhooks: endpointsOncePerBatch(services.webhooks) };
  return forEachRecord('webhook-router', serviceEventSchema, async (serviceEvent) => {
    const queued = await routeEvent(deps, serviceEvent);
    logInfo('webhook-router', { event_id: serviceEvent.id, type: serviceEvent.type, queued });
  })(event);
};
