/**
 * The local HTTPS webhook inbox: the README's first webhook works on a fresh stack (its URL is in
 * stack.json, the functions trust its CA), and the signed deliveries are shown at GET /_local/webhooks.
 */
import { randomUUID } from 'node:crypto';
import { signatureHeaders, verifyServiceSignature } from '#shared/domain/webhooks/signing';
import { api, newAccount, stack, waitFor } from './harness/stack';

interface InboxRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  received_at: string;
}

describe('the local webhook inbox', () => {
  it('receives a signed delivery from a webhook created with its URL, shown at GET /_local/webhooks', async () => {
    const account = await newAccount();
    const inboxUrl = stack().info.webhook_inbox_url!;
    expect(inboxUrl).toMatch(/^https:\/\/localhost:\d+\/$/);
    // As the README does it.
    const created = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${inboxUrl}hooks`, events: ['email.delivered', 'email.bounced'] },
    });
    expect(created.status).toBe(200);
    const secret: string = created.body.secret;
    const test = await api('POST', '/emails/test', { key: account.key, body: { event: 'email.delivered' } });
    expect(test.status).toBe(200);
    const eventId: string = test.body.id;

    const received = await waitFor(async () => {
      const inbox = await api<{ requests: InboxRequest[] }>('GET', '/_local/webhooks');
      expect(inbox.status).toBe(200);
      return inbox.body.requests.find((r) => r.headers['webhook-id'] === eventId);
    }, 'the delivery of the test event in the inbox');
    expect(received).toMatchObject({ method: 'POST', path: '/hooks', received_at: expect.any(String) });
    expect(JSON.parse(received.body)).toMatchObject({ type: 'email.delivered', data: expect.any(Object) });
    // Signed with this webhook's secret, both ways.
    expect(
      verifyServiceSignature({ secret, header: received.headers['service-signature']!, body: received.body, now: new Date() }),
    ).toMatchObject({ ok: true });
    const timestamp = Number(received.headers['webhook-timestamp']);
    expect(received.headers['webhook-signature']).toBe(
      signatureHeaders({ secrets: [secret], webhookId: eventId, timestamp, body: received.body })['webhook-signature'],
    );
    // The delivery log agrees: succeeded (the inbox answered 200).
    const deliveries = await waitFor(async () => {
      const page = await api('GET', `/webhooks/${created.body.webhook.id}/deliveries`, { key: account.key });
      return page.body.deliveries?.find((d: { status: string }) => d.status === 'succeeded') ? page.body.deliveries : undefined;
    }, 'the delivery logged as succeeded');
    expect(deliveries.length).toBeGreaterThan(0);
  });

  it("lists newest first, filtered by ?path=, and DELETE ?path= forgets that endpoint's requests only", async () => {
    // Its own paths: other files running at the same time read (and clear) theirs.
    const account = await newAccount();
    const inboxUrl = stack().info.webhook_inbox_url!;
    const [order, kept] = [`order-${randomUUID().slice(0, 8)}`, `kept-${randomUUID().slice(0, 8)}`];
    for (const path of [order, kept])
      expect(
        (await api('POST', '/webhooks', { key: account.key, body: { url: `${inboxUrl}${path}`, events: ['email.bounced'] } })).status,
      ).toBe(200);
    const listed = async (path: string) => (await api<{ requests: InboxRequest[] }>('GET', `/_local/webhooks?path=/${path}`)).body.requests;
    const first = (await api('POST', '/emails/test', { key: account.key, body: { event: 'email.bounced' } })).body.id;
    await waitFor(async () => (await listed(order)).some((r) => r.headers['webhook-id'] === first), 'the first delivery');
    const second = (await api('POST', '/emails/test', { key: account.key, body: { event: 'email.bounced' } })).body.id;
    const requests = await waitFor(async () => {
      const list = await listed(order);
      return list.some((r) => r.headers['webhook-id'] === second) ? list : undefined;
    }, 'the second delivery');
    expect(requests.map((r) => r.path)).toEqual([`/${order}`, `/${order}`]);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([second, first]);
    await waitFor(async () => (await listed(kept)).length === 2, 'both deliveries to the other endpoint');

    const cleared = await api('DELETE', `/_local/webhooks?path=/${order}`);
    expect(cleared.status).toBe(200);
    expect(cleared.body.deleted).toBe(2);
    expect(await listed(order)).toEqual([]);
    expect((await listed(kept)).map((r) => r.headers['webhook-id'])).toEqual([second, first]);
  });
});
