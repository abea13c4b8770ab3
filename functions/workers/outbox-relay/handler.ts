/**
 * Outbox relay: the table's stream (INSERTed email items, filtered by the event source) -> the send
 * queue and the webhook events queue (email.scheduled, email.suppressed), plus the deferred usage counts. Partial batch failures resume at the first record not done.
 */
import { createSqsClient } from '#shared/adapters/aws/client-factories';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { SqsSendQueue } from '#shared/adapters/aws/sqs-send-queue';
import { SqsEventPublisher } from '#shared/adapters/aws/sqs-event-publisher';
import { ENV, loadConfig, required } from '#shared/config/config';
import { logError, logInfo } from '#shared/lib/log';
import { DeferredUsageCounters } from '#shared/adapters/store/deferred-usage';
import { emailAcceptances } from '#shared/adapters/store/email-acceptance-changes';
import { relayOutbox } from '#shared/usecases/delivery/relay-outbox';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';

// Only what the relay needs (no services graph): a cold start builds two clients' worth of config.
const config = loadConfig();
const sqs = createSqsClient(config);
const deps = {
  sendQueue: new SqsSendQueue(sqs, required(config, 'sendQueueUrl', ENV.sendQueueUrl)),
  events: new SqsEventPublisher(sqs, required(config, 'webhookEventsQueueUrl', ENV.webhookEventsQueueUrl)),
  usage: new DeferredUsageCounters({ client: createDynamoClient(config), name: required(config, 'tableName', ENV.tableName) }),
};

export const handler = forEachStreamBatch('outbox-relay', emailAcceptances, async (items) => {
  const result = await relayOutbox(deps, items);
  if (result.failure) {
    logError('outbox-relay: batch stopped', new Error(result.failure), {
      records: items.length,
      done: result.done,
      sequence_number: items[result.done]?.sequenceNumber,
    });
  } else {
    logInfo('outbox-relay', { records: items.length, enqueued: result.enqueued, published: result.published, counters: result.counted });
  }
  return { done: result.done };
});
