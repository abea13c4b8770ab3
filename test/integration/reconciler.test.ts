/**
 * The reconciler against the real local cloud: work left stuck by a crash (an email accepted and never
 * handed to the send queue, a scheduled email whose firing was lost, a sent email whose provider events
 * were lost, a webhook delivery whose queue message was lost) is found in the due index and moved on.
 * Each case builds the state a crash leaves in the real table, then waits for the reconciler, asking for its
 * passes (`POST /_local/tasks/reconciler/run`, one a second: ./harness/tasks.ts) rather than waiting for its
 * timer (bounds: localstack/cloud/stack/recovery-settings.ts).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { dueAttributes } from '#shared/adapters/store/due-index';
import { deliveryIdFor } from '#shared/domain/webhooks/delivery';
import { newId } from '#shared/domain/ids';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { api, emailOf, newAccount, sesMessagesFor, stack, waitFor, type TestAccount } from './harness/stack';
import { runTask, waitWithReconciler } from './harness/tasks';

const SANDBOX = 'sandbox.mailservice.dev';
const certs = () => ({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });

function table() {
  const { info } = stack();
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: info.region }));
  return { client, name: info.env.TABLE_NAME! };
}

/** An email accepted through the API as scheduled an hour ahead (not handed to the send queue: the scheduler owns it). */
async function acceptedScheduled(account: TestAccount, subject: string): Promise<string> {
  const response = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject, text: 't', scheduled_at: new Date(Date.now() + 3_600_000).toISOString() },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

/** Rewrites an email item as a crash would have left it (MODIFY: the outbox relay does not see it). */
async function leaveAs(emailId: string, set: Record<string, unknown>, dueAgoMs: number) {
  const { client, name } = table();
  const values: Record<string, unknown> = { ...set, ...dueAttributes('EMAIL', emailId, Date.now() - dueAgoMs) };
  const names = Object.keys(values).map((field, i) => [`#f${i}`, field] as const);
  await client.send(
    new UpdateCommand({
      TableName: name,
      Key: keys.email(emailId),
      UpdateExpression: `SET ${names.map(([alias], i) => `${alias} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names),
      ExpressionAttributeValues: Object.fromEntries(Object.values(values).map((value, i) => [`:v${i}`, value])),
    }),
  );
  client.destroy();
}

async function rawItem(emailId: string) {
  const { client, name } = table();
  const result = await client.send(new GetCommand({ TableName: name, Key: keys.email(emailId), ConsistentRead: true }));
  client.destroy();
  return result.Item!;
}

// The tests run at once (`it.concurrent`), each on emails and endpoints of its own: a lease and its grace (18 s)
// no longer hold the others back; the passes they ask for serve them all (the task runs one pass at a time).
describe('reconciler', () => {
  let account: TestAccount;
  const receivers: HttpsReceiver[] = [];
  beforeAll(async () => {
    account = await newAccount();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  it.concurrent('sends an email stranded between accept and hand-off, exactly once, and takes it out of the due index', async () => {
    const id = await acceptedScheduled(account, 'stranded');
    // What a crash between the accepting write and the queue hand-off leaves: queued, no message anywhere.
    await leaveAs(id, { status: 'queued', last_event: 'queued', created_at: new Date(Date.now() - 60_000).toISOString() }, 1000);
    await waitWithReconciler(
      async () => (await emailOf(account, id)).status === 'delivered',
      'stranded email delivered by the reconciler',
      20_000,
    );
    expect(await sesMessagesFor(id)).toHaveLength(1);
    const item = await rawItem(id);
    expect(item.GSI2PK).toBeUndefined();
    expect(item.GSI2SK).toBeUndefined();
  });

  it.concurrent('fires a scheduled email whose schedule firing was lost', async () => {
    const id = await acceptedScheduled(account, 'lost firing');
    await leaveAs(id, { scheduled_at: new Date(Date.now() - 60_000).toISOString() }, 1000);
    await waitWithReconciler(async () => (await emailOf(account, id)).status === 'delivered', 'late scheduled email delivered', 20_000);
    expect(await sesMessagesFor(id)).toHaveLength(1);
  });

  it.concurrent('does not send again an email whose attempt may still reach the provider (lease + grace), then does once it has passed', async () => {
    const id = await acceptedScheduled(account, 'dead attempt');
    // A claimed attempt that died: lease running for 3 more seconds (then the 15 s grace locally).
    const leaseUntil = Date.now() + 3000;
    await leaveAs(id, { status: 'queued', last_event: 'queued', send_lease_until: leaseUntil }, 1000);
    // A reconciler pass finds it due with the lease running, and moves its due entry to the end of the lease and
    // its grace instead of sending it.
    const pastGrace = new RegExp(`^${new Date(leaseUntil + 15_000).toISOString()}#EMAIL#`);
    await waitWithReconciler(
      async () => pastGrace.test((await rawItem(id)).GSI2SK ?? ''),
      'its due entry moved past the lease and the grace',
      12_000,
    );
    expect((await emailOf(account, id)).status).toBe('queued');
    expect(await sesMessagesFor(id)).toHaveLength(0);
    // The re-drive comes some 18 s from the start (the lease, then the grace), and then the send's whole pipeline: 45 s
    // (30 s was passed once, in a whole run beside other work, the machine 99% busy).
    await waitWithReconciler(
      async () => (await emailOf(account, id)).status === 'delivered',
      'dead attempt re-driven after the grace',
      45_000,
    );
    expect(await sesMessagesFor(id)).toHaveLength(1);
  }, 70_000);

  it.concurrent('reports a sent email without provider events as delivery_delayed, then fails it as undetermined', async () => {
    const hook = await startHttpsReceiver(certs());
    receivers.push(hook);
    const other = await newAccount();
    expect(
      (await api('POST', '/webhooks', { key: other.key, body: { url: hook.url, events: ['email.delivery_delayed', 'email.failed'] } }))
        .status,
    ).toBe(200);
    const delayed = await acceptedScheduled(other, 'no outcome yet');
    const expired = await acceptedScheduled(other, 'no outcome ever');
    const sentAgo = (ms: number) => ({
      status: 'sent',
      last_event: 'sent',
      last_event_rank: 1,
      sent_at: new Date(Date.now() - ms).toISOString(),
      provider_message_id: `lost-${ms}`,
    });
    await leaveAs(delayed, sentAgo(301_000), 1000); // past 300 s locally
    await leaveAs(expired, sentAgo(3_601_000), 1000); // past 3600 s locally
    await waitWithReconciler(async () => (await emailOf(other, expired)).status === 'failed', 'no-outcome email failed', 20_000);
    expect(await emailOf(other, expired)).toMatchObject({ status: 'failed', bounce_type: 'undetermined', last_event: 'failed' });
    expect((await emailOf(other, delayed)).bounce_reason ?? null).toBeNull();
    await waitWithReconciler(
      async () => (await emailOf(other, delayed)).last_event === 'delivery_delayed',
      'delivery_delayed reported',
      20_000,
    );
    expect((await emailOf(other, delayed)).status).toBe('sent');
    const requests = await hook.waitForRequests(2, 15_000);
    const bodies = requests.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.type, b.data.email_id]).sort()).toEqual(
      [
        ['email.delivery_delayed', delayed],
        ['email.failed', expired],
      ].sort(),
    );
    expect(bodies.find((b) => b.type === 'email.failed').data.bounce_type).toBe('undetermined');
    // The delayed one waits in the index for the last bound; the failed one left it.
    expect((await rawItem(delayed)).GSI2SK).toBeDefined();
    expect((await rawItem(expired)).GSI2SK).toBeUndefined();
  }, 45_000);

  it.concurrent("leaves an email's due time where acceptance put it through its claim and sent, and waits for a sent one found then", async () => {
    const id = await acceptedScheduled(account, 'in flight at its due time');
    const acceptedItem = await rawItem(id);
    const accepted = acceptedItem.GSI2SK as string;
    expect(accepted).toMatch(new RegExp(`#EMAIL#${id}$`));
    // A scheduled email keeps the usage its acceptance reserved (its cancellation gives it back) until it fires.
    expect(acceptedItem.usage_reserved).toMatchObject({ count: 1 });
    // The firing's claim and the hand-off to SES, as the send worker writes them: the due entry stays put
    // (a new due time is a delete and a put on the index: the normal life of an email writes it twice).
    const emails = stack().services.emails;
    expect((await emails.claimForSend(id, Date.now(), 45_000, 1)).kind).toBe('claimed');
    const claimed = await rawItem(id);
    expect(claimed.GSI2SK).toBe(accepted);
    expect(claimed).not.toHaveProperty('usage_reserved');
    const sentAt = new Date().toISOString();
    expect((await emails.recordSent(id, `pid-${id}`, sentAt))?.status).toBe('sent');
    expect((await rawItem(id)).GSI2SK).toBe(accepted);
    // Its due time comes while it waits for its outcome: the reconciler moves it to the no-outcome bound
    // after sent_at (300 s locally) and neither re-drives nor reports it.
    await leaveAs(id, {}, 1000);
    const dueThen = `${new Date(Date.parse(sentAt) + 300_000).toISOString()}#EMAIL#${id}`;
    await waitWithReconciler(async () => (await rawItem(id)).GSI2SK === dueThen, 'due time moved to the no-outcome bound', 20_000);
    expect(await emailOf(account, id)).toMatchObject({ status: 'sent', last_event: 'sent' });
    expect(await sesMessagesFor(id)).toHaveLength(0);
  });

  it.concurrent('delivers a webhook whose delivery was recorded but whose queue message was lost', async () => {
    const hook = await startHttpsReceiver(certs());
    receivers.push(hook);
    const owner = await newAccount();
    const created = await api('POST', '/webhooks', { key: owner.key, body: { url: hook.url } });
    const webhookId = created.body.webhook.id as string;
    const eventId = newId('evt');
    const deliveryId = deliveryIdFor(eventId);
    const longAgo = new Date(Date.now() - 60_000).toISOString();
    // What the router leaves when it dies after recording the delivery and before queueing it.
    expect(
      await stack().services.webhookDeliveries.create({
        id: deliveryId,
        webhook_id: webhookId,
        account_id: owner.id,
        event_id: eventId,
        event_type: 'email.sent',
        payload: JSON.stringify({ type: 'email.sent', created_at: longAgo, data: { email_id: 'msg_lost' } }),
        status: 'pending',
        attempts: [],
        next_attempt_at: longAgo,
        created_at: longAgo,
        updated_at: longAgo,
      }),
    ).toBe(true);
    await waitWithReconciler(
      async () => (await stack().services.webhookDeliveries.get(webhookId, deliveryId))?.status === 'succeeded',
      'the lost delivery re-driven and succeeded',
      20_000,
    );
    const [request] = await hook.waitForRequests(1, 5_000);
    expect(request!.headers['webhook-id']).toBe(eventId);
  });

  // After the others (a test that is not concurrent runs once the concurrent ones before it have ended).
  it('reports its passes and re-drives on /health', async () => {
    // The re-drives of the tests above, counted over the reconciler's passes. A pass reports when it ends,
    // and a re-drive's effect (a delivery made) can be seen before the pass that made it has ended.
    const health = await waitFor(
      async () => {
        const body = (await fetch(`${stack().apiUrl}/health`).then((r) => r.json())) as any;
        const totals = body.tasks?.reconciler?.totals ?? {};
        return totals.redriven_queued >= 2 && totals.redriven_scheduled >= 1 && totals.redriven_webhooks >= 1 ? body : undefined;
      },
      'the re-drives above counted in the passes reported on /health',
      15_000,
    );
    expect(health.components['task:reconciler']).toBe('up');
    // A pass asked for: it has ended when the answer comes, and is counted.
    const ran = await runTask('reconciler');
    expect(ran).toMatchObject({ state: 'up', passes: expect.any(Number), last_pass_at: expect.any(String) });
    expect(ran.passes).toBeGreaterThan(health.tasks.reconciler.passes);
    const unknown = await fetch(`${stack().apiUrl}/_local/tasks/no-such-task/run`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('not_found');
    expect(health.tasks.reconciler.passes).toBeGreaterThan(0);
    expect(health.queues[stack().info.resources!.queues.send!.name]).toMatchObject({ messages: expect.any(Number) });
  });
});
