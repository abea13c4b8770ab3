/**
 * Inbound worker: one stored inbound message -> a received-email record and email.received
 * (shared/usecases/inbound/process-inbound.ts). The sender's SPF/DKIM/DMARC come in the queue message
 * (the MX listener checked them): no SPF/DKIM/DMARC checks here. A domain's forward routes send
 * the message on through the send core, ARC-sealed with the domain's DKIM key (shared/usecases/inbound/forward-received.ts).
 */
import type { SQSHandler } from 'aws-lambda';
import type { ParsedSendRequest } from '#shared/domain/emails/send-request';
import type { Principal } from '#shared/usecases/access/principal';
import { inboundMessageSchema } from '#shared/domain/messages';
import { parseInbound } from '#shared/adapters/received-mail/parse-message';
import { receiveQueuedInbound } from '#shared/usecases/inbound/process-inbound';
import { sendEmail } from '#shared/usecases/send';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { buildPlatform } from '#shared/services/platform';
import { buildSendingStack, NO_EMAIL_SCHEDULES } from '#shared/services/sending';
import { buildInbound } from '#shared/services/inbound';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';
import { buildSecrets } from '#shared/services/secrets';
import { arcSealHeaders } from '#shared/adapters/received-mail/arc-sealer';
import { dkimKeyContext } from '#shared/domain/domains/domain';
import { buildMailDomains } from '#shared/services/mail-domains';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const sending = buildSendingStack(platform);
// DMARC aggregate reports mailed to a domain's report address are counted (docs/deliverability.md).
const services = {
  ...platform,
  ...sending,
  ...buildInbound(platform, sending),
  ...buildDeliverability(platform),
  ...buildMessaging(platform),
  ...buildBlobs(platform.config),
  // A forward's ARC seal opens the domain's DKIM key.
  ...buildSecrets(platform),
  // The send core's; a forward is never scheduled (no Scheduler client, no grant).
  ...buildMailDomains(platform),
  ...NO_EMAIL_SCHEDULES,
  parseInbound,
};
const deps = {
  ...services,
  forwarding: {
    accounts: services.accounts,
    openDkimKey: (sealedKey: string, domainId: string) => services.secretBox.open(sealedKey, dkimKeyContext(domainId)),
    arcSeal: arcSealHeaders,
    authservId: platform.config.inboundMxHost,
    sendRaw: (principal: Principal, request: ParsedSendRequest, raw: Buffer, emailId: string) =>
      sendEmail(services, { principal }, request, { emailId, mime: { raw } }),
  },
};

export const handler: SQSHandler = forEachRecord('inbound-email', inboundMessageSchema, async (message) => {
  await receiveQueuedInbound(deps, message);
});
