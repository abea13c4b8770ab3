/**
 * Inbound worker: one stored inbound message -> a received-email record and email.received
 * (shared/usecases/inbound/process-inbound.ts). The sender's SPF/DKIM/DMARC come in the queue message
 * (the MX listener checked them), so no SPF/DKIM/DMARC library is in this bundle.
 */
import type { SQSHandler } from 'aws-lambda';
import { inboundMessageSchema } from '#shared/domain/messages';
import { loadConfig } from '#shared/config/config';
import { parseInbound } from '#shared/adapters/received-mail/parse-message';
import { buildCore } from '#shared/services/core';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';
import { receiveQueuedInbound } from '#shared/usecases/inbound/process-inbound';
import { forEachRecord } from '#shared/doors/worker/for-each-record';

// The composition root: only what the worker uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
// DMARC aggregate reports mailed to a domain's report address are counted (docs/deliverability.md).
const services = { ...core, ...buildMessaging(config), ...buildBlobs(config), ...buildDeliverability(core), parseInbound };

export const handler: SQSHandler = forEachRecord('inbound-email', inboundMessageSchema, async (message) => {
  await receiveQueuedInbound(services, message);
});
