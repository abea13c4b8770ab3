/** Webhook router: service events -> one delivery per subscribed endpoint. */
import type { SQSHandler } from 'aws-lambda';
import { serviceEventSchema } from '../../../shared/domain/messages';
import { logInfo } from '../../../shared/log';
import { buildServices } from '../../../shared/services';
import { routeEvent } from '../../../shared/usecases/route-event';
import { forEachRecord } from '../../../shared/worker/for-each-record';

const services = buildServices();

export const handler: SQSHandler = forEachRecord('webhook-router', serviceEventSchema, async (event) => {
  const queued = await routeEvent(services, event);
  logInfo('webhook-router', { event_id: event.id, type: event.type, queued });
});
