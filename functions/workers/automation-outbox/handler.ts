/**
 * Automation outbox: the table's stream (run items, filtered by the event source) -> the automation-steps
 * queue (a step left pending) and the webhook events queue (automation.*). See shared/usecases/automations/runs/relay-runs.ts.
 */
import { createSqsClient } from '#shared/adapters/aws/client-factories';
import { SqsAutomationStepQueue } from '#shared/adapters/aws/sqs-automation-step-queue';
import { SqsEventPublisher } from '#shared/adapters/aws/sqs-event-publisher';
import { ENV, loadConfig, required } from '#shared/config/config';
import { logInfo } from '#shared/lib/log';
import { runWrites } from '#shared/adapters/store/run-changes';
import { relayRuns } from '#shared/usecases/automations/runs/relay-runs';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';

// Only what the relay needs (no services graph).
const config = loadConfig();
const sqs = createSqsClient(config);
const deps = {
  stepQueue: new SqsAutomationStepQueue(sqs, required(config, 'automationStepsQueueUrl', ENV.automationStepsQueueUrl)),
  events: new SqsEventPublisher(sqs, required(config, 'webhookEventsQueueUrl', ENV.webhookEventsQueueUrl)),
};

export const handler = forEachStreamBatch('automation-outbox', runWrites, async (items) => {
  const result = await relayRuns(deps, items);
  logInfo('automation-outbox', { records: items.length, enqueued: result.enqueued, published: result.published });
  return { done: result.done };
});
