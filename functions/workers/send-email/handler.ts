/**
 * Send worker: SQS batch of {email_id, schedule_version?, paced_at?, held_since?} -> deliverPaced (sends paced
 * to SES's quota; a held send goes back to the queue with a delay); transient failures are reported per item.
 */
import type { SQSHandler } from 'aws-lambda';
import { sendMessageSchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { deliverPaced } from '#shared/usecases/delivery/deliver-paced';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildEmails } from '#shared/services/emails';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildDelivery } from '#shared/services/delivery';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';
import { buildSes } from '#shared/services/ses';
import { buildSecrets } from '#shared/services/secrets';
import { buildSesPace } from '#shared/services/ses-pace';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
const domains = buildDomains(platform);
const delivery = buildDelivery(platform, domains);
const services = {
  ...platform,
  ...access,
  ...buildTenants(platform),
  ...domains,
  ...buildEmails(platform),
  ...buildSuppressions(platform),
  ...delivery,
  ...buildMessaging(platform),
  ...buildBlobs(platform.config),
  ...buildSes(platform.config),
  ...buildSecrets(platform),
  ...buildSesPace(platform.config, delivery),
};
/**
 * Lease on a claimed email: above the worker's 30 s timeout, so an attempt that is alive holds it;
 * below the send queue's 60 s visibility timeout. SEND_LEASE_S shortens it (the kill test).
 */
const LEASE_MS = (Number(process.env.SEND_LEASE_S) > 0 ? Number(process.env.SEND_LEASE_S) : 45) * 1000;

export const handler: SQSHandler = forEachRecord('send-email', sendMessageSchema, async (message) => {
  const result = await deliverPaced({ ...services, leaseMs: LEASE_MS }, message);
  if (result !== 'held') logInfo('send-email', { email_id: message.email_id, result });
});
