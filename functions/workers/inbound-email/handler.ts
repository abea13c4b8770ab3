/** Inbound worker: one stored inbound message -> a received-email record and email.received (shared/usecases/inbound/process-inbound.ts). */
import type { SQSHandler } from 'aws-lambda';
import { inboundMessageSchema } from '../../../shared/domain/messages';
import { buildServices } from '../../../shared/services';
import { processInbound } from '../../../shared/usecases/inbound/process-inbound';
import { forEachRecord } from '../../../shared/worker/for-each-record';

const services = buildServices();

export const handler: SQSHandler = forEachRecord('inbound-email', inboundMessageSchema, async (message) => {
  await processInbound(services, message);
});
