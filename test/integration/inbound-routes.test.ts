/**
 * Inbound routes end to end on the local cloud (issue 50 item 5; docs/inbound.md, "Routes"): a receiving domain's
 * ordered routes set with PUT /domains/{id}/inbound-routes; mail to `billing@` reaches only the endpoint its route
 * names, `quiet@` is recorded with no webhook, a recipient no route matches reaches every subscribed endpoint, and the
 * MX listener refuses at RCPT TO (550 with the route's message) what a `refuse` route matches, storing nothing. The
 * PUT's rules: the endpoints it names must be the account's and subscribed to email.received; a domain that does not
 * receive mail has no routes (409).
 */
import { randomUUID } from 'node:crypto';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { inboxRequests } from './harness/webhook-inbox';
import { uniqueDomain } from './harness/dns';

/** An endpoint on a path of the local webhook inbox of its own: its id, and the email ids of the email.received it got. */
async function endpoint(account: TestAccount, events = ['email.received']) {
  const path = `routes-${randomUUID().slice(0, 8)}`;
  const created = await api('POST', '/webhooks', { key: account.key, body: { url: `${stack().info.webhook_inbox_url}${path}`, events } });
  expect(created.status).toBe(200);
  return {
    id: created.body.webhook.id as string,
    received: async () => (await inboxRequests(path)).map((request) => JSON.parse(request.body).data.email_id as string),
  };
}

describe('inbound routes', () => {
  let account: TestAccount;
  let inbox: Awaited<ReturnType<typeof receivingDomain>>;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro', paymentMethod: true });
    inbox = await receivingDomain(account);
  });

  const put = (routes: unknown[], domainId = inbox.id) =>
    api('PUT', `/domains/${domainId}/inbound-routes`, { key: account.key, body: { routes } });
  const send = (from: string, local: string) =>
    mxTransport().sendMail({ envelope: { from, to: [inbox.address(local)] }, from, to: inbox.address(local), subject: local, text: 't' });

  it('sends each recipient’s mail where its route says, and refuses at RCPT TO what a refuse route matches', async () => {
    const billing = await endpoint(account);
    const everyone = await endpoint(account);
    const blocked = `spam@${uniqueDomain()}`;
    const set = await put([
      { description: 'invoices', match: { recipient: 'Billing' }, action: { type: 'webhooks', webhook_ids: [billing.id] } },
      { match: { recipient: 'quiet' }, action: { type: 'store' } },
      { match: { recipient: '*', sender: blocked }, action: { type: 'refuse', message: 'Blocked here.' } },
    ]);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      object: 'inbound_routes',
      domain_id: inbox.id,
      receiving_domain: inbox.subdomain,
      updated_at: expect.any(String),
    });
    expect(set.body.routes[0]).toEqual({
      description: 'invoices',
      match: { recipient: 'billing' },
      action: { type: 'webhooks', webhook_ids: [billing.id] },
    });
    expect((await api('GET', `/domains/${inbox.id}/inbound-routes`, { key: account.key })).body).toEqual(set.body);

    const refused = await send(blocked, 'anyone').catch((error: { responseCode?: number; response?: string }) => error);
    expect(refused).toMatchObject({ responseCode: 550, response: '550 5.7.1 Blocked here.' });

    const [billingId] = receivedIds((await send('a@example.org', 'billing+march')).response);
    const [quietId] = receivedIds((await send('a@example.org', 'quiet')).response);
    const [otherId] = receivedIds((await send('a@example.org', 'other')).response);
    await waitForReceived(account, quietId!);
    await waitFor(async () => (await everyone.received()).includes(otherId!), 'the unrouted recipient’s mail at every endpoint');
    // Each endpoint's deliveries go on their own: wait for both of billing's (its own and the unrouted one).
    await waitFor(async () => {
      const got = await billing.received();
      return got.includes(billingId!) && got.includes(otherId!);
    }, 'billing’s mail and the unrouted mail at billing’s endpoint');
    // By now the routed mail went where it was going: billing's only to its endpoint, quiet's nowhere.
    expect((await billing.received()).sort()).toEqual([billingId, otherId].sort());
    expect(await everyone.received()).toEqual([otherId]);
    const quiet = await api('GET', `/received-emails/${quietId}`, { key: account.key });
    expect(quiet.body.received_email).toMatchObject({ id: quietId, rcpt_to: [inbox.address('quiet')] });
  });

  it('takes only the account’s endpoints subscribed to email.received, and no routes for a domain that does not receive mail', async () => {
    const unsubscribed = await endpoint(account, ['email.delivered']);
    const other = await endpoint(await newAccount());
    const refused = await put([
      { match: { recipient: 'a' }, action: { type: 'webhooks', webhook_ids: [unsubscribed.id] } },
      { match: { recipient: 'b' }, action: { type: 'webhooks', webhook_ids: [other.id] } },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual([
      { field: 'routes.0.action.webhook_ids.0', message: expect.stringContaining('not subscribed to email.received') },
      { field: 'routes.1.action.webhook_ids.0', message: `no webhook endpoint ${other.id} in this account` },
    ]);
    const sending = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } });
    const noInbound = await put([{ match: { recipient: '*' }, action: { type: 'store' } }], sending.body.domain.id);
    expect(noInbound.status).toBe(409);
    expect((await put([])).body.routes).toEqual([]);
  });
});
