/** SES events worker: SNS-wrapped SES notifications -> email status. Unknown or foreign emails are dropped. */
import type { SQSHandler } from 'aws-lambda';
import { sesEventsBodySchema } from '../../../shared/domain/messages';
import { logInfo } from '../../../shared/log';
import { buildServices } from '../../../shared/services';
import { applySesEvent } from '../../../shared/usecases/apply-ses-event';
import { forEachRecord } from '../../../shared/worker/for-each-record';

const services = buildServices();

export const handler: SQSHandler = forEachRecord('ses-events', sesEventsBodySchema, async (sesEvent, record) => {
  const result = await applySesEvent(services, sesEvent);
  if (result !== 'applied') logInfo('ses-events', { message_id: record.messageId, result });
});
