/** SES events worker: SNS-wrapped SES notifications -> email status. Unknown or foreign emails are dropped. */
import type { SQSHandler } from 'aws-lambda';
import { sesEventsBodySchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildMessaging } from '#shared/services/messaging';
import { applySesEvent } from '#shared/usecases/delivery/apply-ses-event';
import { forEachRecord } from '#shared/doors/worker/for-each-record';

// The composition root: only what the worker uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const services = { ...core, ...buildMessaging(config) };

export const handler: SQSHandler = forEachRecord('ses-events', sesEventsBodySchema, async (sesEvent, record) => {
  const result = await applySesEvent(services, sesEvent);
  if (result !== 'applied') logInfo('ses-events', { message_id: record.messageId, result });
});
