/**
 * Inbound worker: one stored inbound message -> a received-email record and email.received
 * (shared/usecases/inbound/process-inbound.ts). The sender's SPF/DKIM/DMARC come in the queue message
 * (the MX listener checked them), so no SPF/DKIM/DMARC library is in this bundle.
 */
import type { SQSHandler } from 'aws-lambda';
import { inboundMessageSchema } from '#shared/domain/messages';
import { parseInbound } from '#shared/adapters/received-mail/parse-message';
import { receiveQueuedInbound } from '#shared/usecases/inbound/process-inbound';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildInbound } from '#shared/services/inbound';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const domains = buildDomains(platform);
// DMARC aggregate reports mailed to a domain's report address are counted (docs/deliverability.md).
const services = {
  ...platform,
  ...buildAccess(platform),
  ...buildTenants(platform),
  ...domains,
  ...buildInbound(platform, domains),
  ...buildDeliverability(platform),
  ...buildMessaging(platform),
  ...buildBlobs(platform.config),
  parseInbound,
};

export const handler: SQSHandler = forEachRecord('inbound-email', inboundMessageSchema, async (message) => {
  await receiveQueuedInbound(services, message);
});
