/**
 * Delivery outcomes driven by SES notifications (SNS -> SQS -> ses-events worker), including ones the
 * mailbox simulator cannot produce, published here exactly as SES would; unknown, foreign and poison
 * messages never block the queues.
 */
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetQueueAttributesCommand, GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';

function clients() {
  const { info } = stack();
  return {
    sns: new SNSClient({ endpoint: info.endpoints.sns, region: info.region }),
    sqs: new SQSClient({ endpoint: info.endpoints.sqs, region: info.region }),
  };
}

async function publishSesEvent(event: Record<string, unknown>) {
  const { sns } = clients();
  await sns.send(new PublishCommand({ TopicArn: stack().info.resources!.topics.sesEvents!.arn, Message: JSON.stringify(event) }));
  sns.destroy();
}

const mail = (emailId: string, accountId: string) => ({
  timestamp: new Date().toISOString(),
  messageId: `local-${emailId}`,
  source: 'a@sandbox.mailservice.dev',
  destination: ['x@example.com'],
  tags: { email_id: [emailId], account_id: [accountId] },
});

async function depth(queueName: string): Promise<number> {
  const { sqs } = clients();
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }));
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  sqs.destroy();
  return (
    Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0) +
    Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
  );
}

const emailOf = async (account: TestAccount, id: string) => (await api('GET', `/emails/${id}`, { key: account.key })).body.email;

async function deliveredEmail(account: TestAccount) {
  const send = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 'o', text: 't' },
  });
  await waitFor(async () => (await emailOf(account, send.body.id)).status === 'delivered', 'delivered');
  return send.body.id as string;
}

// The tests run at once (`it.concurrent`), each on emails of its own: the poison message's trips to the DLQ
// overlap the others.
describe('delivery outcomes', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
  });

  it.concurrent('turns an address refusal after delivery (an asynchronous bounce) into bounced/hard and suppresses the address', async () => {
    const id = await deliveredEmail(account);
    await publishSesEvent({
      eventType: 'Bounce',
      mail: mail(id, account.id),
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'NoEmail',
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: 'late-bounce@example.com', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 mailbox gone' }],
      },
    });
    const email = await waitFor(async () => {
      const current = await emailOf(account, id);
      return current.status === 'bounced' ? current : undefined;
    }, 'bounced');
    expect(email).toMatchObject({
      last_event: 'bounced',
      bounce_type: 'hard',
      bounce_reason: 'smtp; 550 5.1.1 mailbox gone',
      delivered_at: expect.any(String),
      bounced_at: expect.any(String),
    });
    // The list is read through an index: the suppression shows once it has caught up.
    const suppressed = await waitFor(
      async () => (await api('GET', '/suppressions?email=late-bounce@example.com', { key: account.key })).body.suppressions[0],
      'the suppression listed',
    );
    expect(suppressed).toMatchObject({ reason: 'bounce' });
  });

  it.concurrent('reports a block as bounced/block without suppressing; a late delay does not move a delivered email back', async () => {
    const id = await deliveredEmail(account);
    await publishSesEvent({
      eventType: 'DeliveryDelay',
      mail: mail(id, account.id),
      deliveryDelay: { timestamp: new Date().toISOString(), delayType: 'TransientCommunicationFailure' },
    });
    const blockedId = (
      await api('POST', '/emails', { key: account.key, body: { from: `a@${SANDBOX}`, to: account.email, subject: 'b', text: 't' } })
    ).body.id;
    await waitFor(async () => (await emailOf(account, blockedId)).sent_at, 'sent');
    await publishSesEvent({
      eventType: 'Bounce',
      mail: mail(blockedId, account.id),
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: 'blocked@example.com', status: '5.7.1', diagnosticCode: 'smtp; 550 5.7.1 rejected by policy' }],
      },
    });
    const blocked = await waitFor(async () => {
      const current = await emailOf(account, blockedId);
      return current.bounce_type === 'block' ? current : undefined;
    }, 'block');
    expect(blocked.status).toBe('bounced');
    expect((await api('GET', '/suppressions?email=blocked@example.com', { key: account.key })).body.suppressions).toEqual([]);
    // The delay came after delivery: the status stays delivered.
    expect((await emailOf(account, id)).status).toBe('delivered');
  });

  it.concurrent('drops events for unknown or foreign emails and keeps the queue flowing', async () => {
    const other = await newAccount();
    const id = await deliveredEmail(account);
    // Unknown email id, another account's tag on our email, no tags at all, and garbage.
    await publishSesEvent({ eventType: 'Delivery', mail: mail('msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ', account.id), delivery: {} });
    await publishSesEvent({
      eventType: 'Bounce',
      mail: mail(id, other.id),
      bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'x@example.com', status: '5.1.1' }] },
    });
    await publishSesEvent({ eventType: 'Delivery', mail: { messageId: 'not-ours', timestamp: new Date().toISOString() }, delivery: {} });
    const { sns } = clients();
    await sns.send(new PublishCommand({ TopicArn: stack().info.resources!.topics.sesEvents!.arn, Message: 'not json at all' }));
    sns.destroy();
    // The foreign bounce did not touch our email, and new mail still flows.
    expect((await emailOf(account, id)).status).toBe('delivered');
    await deliveredEmail(account);
    expect((await emailOf(account, id)).status).toBe('delivered');
  });

  it.concurrent('moves a poison send message to the DLQ without blocking other sends', async () => {
    const { sqs } = clients();
    const before = await depth(stack().info.resources!.queues.send!.dlqName);
    await sqs.send(new SendMessageCommand({ QueueUrl: stack().info.env.SEND_QUEUE_URL, MessageBody: '{"this is": "poison"}' }));
    sqs.destroy();
    await deliveredEmail(account);
    // Visibility is 1 s on the test stack and maxReceiveCount 5: the DLQ gets it within ~5-10 s.
    await waitFor(
      async () => (await depth(stack().info.resources!.queues.send!.dlqName)) > before,
      'poison message in the DLQ',
      30_000,
      250,
    );
    const dlq = clients().sqs;
    const { QueueUrl } = await dlq.send(new GetQueueUrlCommand({ QueueName: stack().info.resources!.queues.send!.dlqName }));
    const received = await dlq.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(received.Messages?.some((m) => m.Body === '{"this is": "poison"}')).toBe(true);
    dlq.destroy();
  }, 45_000);
});
