/**
 * Late events of a deleted tenant's email (docs/tenants.md, "Deleting a tenant"), against the local
 * cloud: an SES notification that arrives after the DELETE (an asynchronous bounce, published exactly as
 * SES would) reaches the account's endpoints with `tenant: null`, as GET /emails shows the email, and
 * reaches no endpoint filtered to a new tenant that took the same external_id. Events delivered before
 * the deletion named the tenant.
 */
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { api, emailOf, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';
import { webhookInbox } from './harness/webhook-inbox';

const SANDBOX = 'sandbox.mailservice.dev';

async function publishSesEvent(event: Record<string, unknown>) {
  const { info } = stack();
  const sns = new SNSClient({ endpoint: info.endpoints.sns, region: info.region });
  await sns.send(new PublishCommand({ TopicArn: info.resources!.topics.sesEvents!.arn, Message: JSON.stringify(event) }));
  sns.destroy();
}

async function deliveredAs(account: TestAccount, tenant: string): Promise<string> {
  const sent = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 'late', text: 't', tenant },
  });
  expect(sent.status).toBe(200);
  await waitFor(async () => (await emailOf(account, sent.body.id)).status === 'delivered', 'delivered');
  return sent.body.id;
}

describe('late events of a deleted tenant', () => {
  it('carry tenant null (as GET /emails shows the email) and reach no endpoint of a new tenant with the same external_id', async () => {
    const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const received = await webhookInbox(account, ['email.delivered', 'email.bounced']);
    const tenant = await createTenant(account, {}, 'late');
    const id = await deliveredAs(account, tenant.external_id);
    const delivered = await waitFor(
      async () => (await received()).find((event) => event.type === 'email.delivered' && event.data.email_id === id),
      'email.delivered',
    );
    expect(delivered.data.tenant).toBe(tenant.external_id);

    expect((await api('DELETE', `/tenants/${tenant.external_id}`, { key: account.key })).status).toBe(200);
    const successor = await createTenant(account, { external_id: tenant.external_id });
    const filtered = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${stack().info.webhook_inbox_url}late-${successor.id}`, events: ['email.bounced'], tenants: [successor.external_id] },
    });
    expect(filtered.status).toBe(200);

    // SES reports a bounce of the delivered message after the tenant is gone.
    await publishSesEvent({
      eventType: 'Bounce',
      mail: {
        timestamp: new Date().toISOString(),
        messageId: `local-${id}`,
        source: `a@${SANDBOX}`,
        destination: [account.email],
        tags: { email_id: [id], account_id: [account.id] },
      },
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'NoEmail',
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: account.email, status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 mailbox gone' }],
      },
    });
    const bounced = await waitFor(
      async () => (await received()).find((event) => event.type === 'email.bounced' && event.data.email_id === id),
      'the late email.bounced',
    );
    expect(bounced.data).toMatchObject({ email_id: id, status: 'bounced', tenant: null });
    expect(await emailOf(account, id)).toMatchObject({ status: 'bounced', tenant: null });
    // The new tenant's endpoint got no delivery of it (routing records every delivery before queueing any).
    const deliveries = await api('GET', `/webhooks/${filtered.body.webhook.id}/deliveries`, { key: account.key });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.deliveries).toEqual([]);
  });
});
