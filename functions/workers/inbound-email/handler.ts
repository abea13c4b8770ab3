/** Inbound worker: one stored inbound message -> a received-email record and email.received (shared/usecases/inbound/process-inbound.ts). */
import type { SQSHandler } from 'aws-lambda';
import { inboundMessageSchema } from '../../../shared/domain/messages';
import { loadConfig } from '../../../shared/config';
import { buildCore } from '../../../shared/services/core';
import { buildMessaging } from '../../../shared/services/messaging';
import { buildBlobs } from '../../../shared/services/blobs';
import { buildInbound } from '../../../shared/services/inbound';
import { processInbound } from '../../../shared/usecases/inbound/process-inbound';
import { forEachRecord } from '../../../shared/worker/for-each-record';

// The composition root: only what the worker uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const services = { ...core, ...buildMessaging(config), ...buildBlobs(config), ...buildInbound(core) };

export const handler: SQSHandler = forEachRecord('inbound-email', inboundMessageSchema, async (message) => {
  await processInbound(services, message);
});
