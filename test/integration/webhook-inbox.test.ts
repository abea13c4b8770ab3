/** The local HTTPS webhook inbox: the README's first webhook works on a fresh stack, signed deliveries shown. */
import { api, newAccount, stack, waitFor } from './harness/stack';

describe('the local webhook inbox', () => {
  it('receives a signed delivery from a webhook created with its URL, shown at GET /_local/webhooks', async () => {
    const account = await newAccount();
    const inboxUrl = stack().info.webhook_inbox_url!;
    expect(inboxUrl).toMatch(/^https:\/\/localhost:\d+\/$/);
    const created = await api('POST', '/webhooks', { key: account.key, body: { url: `${inboxUrl}hooks`, events: ['email.delivered'] } });
    expect(created.status).toBe(200);
    const test = await api('POST', '/emails/test', { key: account.key, body: { event: 'email.delivered' } });
    expect(test.status).toBe(200);
    const received = await waitFor(async () => {
      const inbox = await api('GET', '/_local/webhooks');
      return inbox.body.requests.find((r: { headers: Record<string, string>; body: string }) => r.body.includes(account.id) || r.headers['webhook-id']);
    }, 'a delivery in the inbox');
    expect(received).toMatchObject({ method: 'POST', path: '/hooks' });
    expect(received.headers['webhook-signature']).toMatch(/^v1,/);
    expect(received.headers['service-signature']).toBeDefined();
    expect(JSON.parse(received.body)).toMatchObject({ type: 'email.delivered' });
    expect((await api('DELETE', '/_local/webhooks')).body.deleted).toBeGreaterThan(0);
  });
});
