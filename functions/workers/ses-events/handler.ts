/** SES events worker: SNS-wrapped SES notifications -> email status. Unknown or foreign emails are dropped. */
import type { SQSHandler } from 'aws-lambda';
import { sesEventsBodySchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { applySesEvent } from '#shared/usecases/delivery/apply-ses-event';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildEmails } from '#shared/services/emails';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildMessaging } from '#shared/services/messaging';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
const services = {
  ...platform,
  ...access,
  ...buildTenants(platform),
  ...buildEmails(platform),
  ...buildSuppressions(platform),
  ...buildMessaging(platform),
};

export const handler: SQSHandler = forEachRecord('ses-events', sesEventsBodySchema, async (sesEvent, record) => {
  const result = await applySesEvent(services, sesEvent);
  if (result !== 'applied') logInfo('ses-events', { message_id: record.messageId, result });
});
