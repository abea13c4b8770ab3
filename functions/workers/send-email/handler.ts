/** Send worker: SQS batch of {email_id, schedule_version?} -> deliverEmail; transient failures are reported per item. */
import type { SQSHandler } from 'aws-lambda';
import { sendMessageSchema } from '../../../shared/domain/messages';
import { logInfo } from '../../../shared/log';
import { loadConfig } from '../../../shared/config';
import { buildCore } from '../../../shared/services/core';
import { buildMessaging } from '../../../shared/services/messaging';
import { buildBlobs } from '../../../shared/services/blobs';
import { buildSes } from '../../../shared/services/ses';
import { buildSecrets } from '../../../shared/services/secrets';
import { deliverEmail } from '../../../shared/usecases/deliver-email';
import { forEachRecord } from '../../../shared/worker/for-each-record';

// The composition root: only what the worker uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const services = { ...core, ...buildMessaging(config), ...buildBlobs(config), ...buildSes(config), ...buildSecrets(config, core) };
/**
 * Lease on a claimed email: above the worker's 30 s timeout, so an attempt that is alive holds it;
 * below the send queue's 60 s visibility timeout. SEND_LEASE_S shortens it (the kill test).
 */
const LEASE_MS = (Number(process.env.SEND_LEASE_S) > 0 ? Number(process.env.SEND_LEASE_S) : 45) * 1000;

export const handler: SQSHandler = forEachRecord('send-email', sendMessageSchema, async (message) => {
  const result = await deliverEmail({ ...services, leaseMs: LEASE_MS }, message.email_id, message.schedule_version);
  logInfo('send-email', { email_id: message.email_id, result });
});
