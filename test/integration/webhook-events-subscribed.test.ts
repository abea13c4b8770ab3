/**
 * Service events reach the webhook events queue only for accounts with a webhook endpoint (issue 49, item 6;
 * shared/usecases/webhooks/subscribed-events.ts): the events publisher every function builds
 * (shared/services/messaging.ts), on the stack's table, sending to a queue of this test's own on the local SQS.
 * The account's endpoint counter decides, read as the endpoint is created and deleted through the API.
 */
import { CreateQueueCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { createSqsClient } from '#shared/adapters/aws/sqs-client';
import { loadConfig } from '#shared/config/config';
import type { ServiceEventMessage } from '#shared/domain/messages';
import { buildMessaging } from '#shared/services/messaging';
import { buildPlatform } from '#shared/services/platform';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

const event = (id: string, account: TestAccount): ServiceEventMessage => ({
  id: `evt_${id}`,
  type: 'email.sent',
  account_id: account.id,
  tenant: null,
  created_at: new Date().toISOString(),
  data: { email_id: `msg_${id}` },
});

describe('webhook events of accounts without an endpoint are not published', () => {
  let queueUrl = '';
  let sqs: ReturnType<typeof createSqsClient>;
  let events: ReturnType<typeof buildMessaging>['events'];

  beforeAll(async () => {
    stack();
    const config = loadConfig(process.env);
    sqs = createSqsClient(config);
    queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `subscribed-events-${Date.now()}` }))).QueueUrl!;
    events = buildMessaging(buildPlatform({ ...config, webhookEventsQueueUrl: queueUrl })).events;
  });

  /** Every message on the queue now (the test's own queue: nothing else sends to it). */
  async function drained(): Promise<ServiceEventMessage[]> {
    const all: Message[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
      );
      if (Messages.length === 0) return all.map((message) => JSON.parse(message.Body!));
      all.push(...Messages);
    }
  }

  test('only the events of the account with an endpoint reach the queue; once its endpoint is deleted, none', async () => {
    const [hooked, quiet] = await Promise.all([newAccount(), newAccount()]);
    const created = await api('POST', '/webhooks', {
      key: hooked.key,
      body: { url: `${stack().info.webhook_inbox_url}subscribed`, events: ['email.delivered'] },
    });
    expect(created.status).toBe(200);

    // An endpoint created a moment ago takes the very next events (the local cloud keeps no presence cache).
    await events.publish([event('a1', hooked), event('q1', quiet), event('a2', hooked)]);
    await events.publish([event('q2', quiet)]);
    expect((await drained()).map((message) => message.id).sort()).toEqual(['evt_a1', 'evt_a2']);

    // The counter counts endpoints, enabled or not: deleting the only one stops the account's events.
    expect((await api('DELETE', `/webhooks/${created.body.webhook.id}`, { key: hooked.key })).status).toBe(200);
    await events.publish([event('a3', hooked)]);
    expect(await drained()).toEqual([]);
  });
});
