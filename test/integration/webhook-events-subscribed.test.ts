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
import { WebhookPresence } from '#shared/adapters/store/webhook-presence';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { tableCallsOf } from './harness/table-calls';

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

  /** Two new accounts: one with a webhook endpoint (its id for the deletion), one without. */
  async function hookedAndQuiet(path: string): Promise<{ hooked: TestAccount; quiet: TestAccount; webhookId: string }> {
    const [hooked, quiet] = await Promise.all([newAccount(), newAccount()]);
    const created = await api('POST', '/webhooks', {
      key: hooked.key,
      body: { url: `${stack().info.webhook_inbox_url}${path}`, events: ['email.delivered'] },
    });
    expect(created.status).toBe(200);
    return { hooked, quiet, webhookId: created.body.webhook.id };
  }

  test('only the events of the account with an endpoint reach the queue; once its endpoint is deleted, none', async () => {
    const { hooked, quiet, webhookId } = await hookedAndQuiet('subscribed');

    // An endpoint created a moment ago takes the very next events (the local cloud keeps no presence cache).
    await events.publish([event('a1', hooked), event('q1', quiet), event('a2', hooked)]);
    await events.publish([event('q2', quiet)]);
    expect((await drained()).map((message) => message.id).sort()).toEqual(['evt_a1', 'evt_a2']);

    // The counter counts endpoints, enabled or not: deleting the only one stops the account's events.
    expect((await api('DELETE', `/webhooks/${webhookId}`, { key: hooked.key })).status).toBe(200);
    await events.publish([event('a3', hooked)]);
    expect(await drained()).toEqual([]);
  });

  test('the presence of a publish is one strongly consistent BatchGetItem for all its accounts, then kept for the bound (HOT_LOOKUPS_CACHE_MS)', async () => {
    const { hooked, quiet, webhookId } = await hookedAndQuiet('presence');
    const table = stack().services.table;
    const kept = new WebhookPresence(table, 60_000);
    const ask = () => kept.accountsWithEndpoints([quiet.id, hooked.id, quiet.id]);

    const answers: Set<string>[] = [];
    const asked = () =>
      tableCallsOf(async () => {
        answers.push(await ask());
      });
    expect(await asked()).toEqual(['BatchGetCommand']);
    // Within the bound nothing is read again, whatever the answer was.
    expect(await asked()).toEqual([]);
    expect(answers.map((answer) => [...answer])).toEqual([[hooked.id], [hooked.id]]);

    // Its last endpoint deleted: a process that keeps nothing (the local cloud's 0) sees it at once.
    expect((await api('DELETE', `/webhooks/${webhookId}`, { key: hooked.key })).status).toBe(200);
    expect([...(await new WebhookPresence(table, 0).accountsWithEndpoints([hooked.id, quiet.id]))]).toEqual([]);
  });
});
