/** Webhook router: service events -> one delivery per subscribed endpoint. */
import type { SQSHandler } from 'aws-lambda';
import { logInfo } from '../../../shared/log';
import { buildServices } from '../../../shared/services';
import { parseServiceEvent, routeEvent } from '../../../shared/usecases/route-event';
import { forEachRecord } from '../../../shared/worker/for-each-record';

const services = buildServices();

export const handler: SQSHandler = forEachRecord('webhook-router', async (record) => {
  const event = parseServiceEvent(record.body);
  const queued = await routeEvent(services, event);
  logInfo('webhook-router', { event_id: event.id, type: event.type, queued });
});
