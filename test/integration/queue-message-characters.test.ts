/**
 * Strangers' characters never make a queue message refused: an email whose subject and tags hold what SQS
 * does not take raw (U+FFFF) or what the local SQS refuses one UTF-16 unit at a time (an emoji) is sent,
 * delivered and its webhooks delivered with the text intact, through every queue on its way (the send
 * queue, the webhook events and deliveries queues: shared/adapters/aws/sqs-message-body.ts). Before, the
 * send worker's event publish failed on every retry and the message went to the DLQ.
 */
import { verifiedDomain } from './harness/domains';
import { api, newAccount, waitFor, waitForStatus } from './harness/stack';
import { webhookInbox } from './harness/webhook-inbox';

it('sends, delivers and reports an email whose subject and tags hold U+FFFF and an emoji', async () => {
  const account = await newAccount({ plan: 'pro', paymentMethod: true });
  const domain = await verifiedDomain(account);
  const received = await webhookInbox(account, ['email.sent', 'email.delivered']);
  const subject = 'Sale \uFFFF ends today 🎉';
  const sent = await api('POST', '/emails', {
    key: account.key,
    body: { from: `shop@${domain.name}`, to: 'someone@example.com', subject, text: 'See you 🎉', tags: [{ name: 'campaign', value: 'x' }] },
  });
  expect(sent.status).toBe(200);
  expect((await waitForStatus(account, sent.body.id, 'delivered')).subject).toBe(subject);
  const events = await waitFor(async () => {
    const all = (await received()).filter((event) => event.data.email_id === sent.body.id);
    return all.some((event) => event.type === 'email.delivered') ? all : undefined;
  }, 'the email.delivered webhook');
  expect(events.find((event) => event.type === 'email.delivered')!.data.subject).toBe(subject);
});
