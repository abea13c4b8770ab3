/**
 * Webhook delivery end to end: real HTTPS receivers on loopback (a test CA the stack trusts), signed
 * events for what the pipeline does, verified with the spec's four steps and with the Standard Webhooks
 * library; the retry schedule (shortened on the test stack to 0,1,1,1,1 s, same count), the attempt
 * log, replay, event filtering, and a dead endpoint not holding up others.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from '../support/https-receiver';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { DEFAULT_WAIT_MS } from '../support/wait';
import { tableCallsOf } from './harness/table-calls';

const SANDBOX = 'sandbox.mailservice.dev';
const certs = () => ({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });

/** The spec's receiver algorithm, written from the spec (not the service's code). */
function verifyAsSpecSays(secret: string, header: string, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || !parts.v1) return false;
  if (Math.abs(nowSeconds - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
}

async function subscribe(account: TestAccount, receiver: HttpsReceiver, events?: string[]) {
  const response = await api('POST', '/webhooks', { key: account.key, body: { url: receiver.url, ...(events ? { events } : {}) } });
  expect(response.status).toBe(200);
  return { id: response.body.webhook.id as string, secret: response.body.secret as string };
}

const typesOf = (requests: ReceivedRequest[]) => requests.map((r) => JSON.parse(r.body).type as string);

// Every test runs at once (`it.concurrent`, one block: Jest runs a block's concurrent tests together where the first
// one stands), each with an account and a receiver of its own; the table calls counted are the counting test's own
// (tableCallsOf).
describe('webhook delivery', () => {
  const receivers: HttpsReceiver[] = [];
  const receiver = async () => {
    const started = await startHttpsReceiver(certs());
    receivers.push(started);
    return started;
  };
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  it.concurrent('delivers signed email.sent and email.delivered that verify with the spec and Standard Webhooks', async () => {
    const account = await newAccount();
    const hook = await receiver();
    const { secret } = await subscribe(account, hook);
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'hooked', text: 't' },
    });
    const requests = await hook.waitForRequests(2, DEFAULT_WAIT_MS);
    expect(typesOf(requests).sort()).toEqual(['email.delivered', 'email.sent']);
    for (const request of requests) {
      const body = JSON.parse(request.body);
      expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'type']);
      expect(body.data).toMatchObject({ email_id: send.body.id, to: [account.email], subject: 'hooked' });
      expect(body.data.status).toBe(body.type === 'email.sent' ? 'sent' : 'delivered');
      expect(verifyAsSpecSays(secret, String(request.headers['service-signature']), request.body)).toBe(true);
      expect(verifyAsSpecSays(secret, String(request.headers['service-signature']), `${request.body} `)).toBe(false);
      expect(verifyAsSpecSays('whsec_wrong', String(request.headers['service-signature']), request.body)).toBe(false);
      // Outside the receiver's 5-minute tolerance.
      expect(
        verifyAsSpecSays(secret, String(request.headers['service-signature']), request.body, Math.floor(Date.now() / 1000) + 301),
      ).toBe(false);
      const standard = new Webhook(secret);
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      expect(standard.verify(request.body, headers)).toEqual(body);
      expect(() => standard.verify(request.body.replace('hooked', 'hacked'), headers)).toThrow();
      expect(request.headers['webhook-id']).toMatch(/^evt_/);
    }
  });

  it.concurrent('reads a delivery and its endpoint in one round trip before each POST (one strongly consistent BatchGetItem)', async () => {
    const account = await newAccount();
    const hook = await receiver();
    const { id } = await subscribe(account, hook, ['email.sent']);
    await api('POST', '/emails/test', { key: account.key, body: { event: 'email.sent' } });
    await hook.waitForRequests(1, DEFAULT_WAIT_MS);
    // The receiver has the POST a moment before the worker records its answer.
    const delivery = await waitFor(async () => {
      const [listed] = (await api('GET', `/webhooks/${id}/deliveries`, { key: account.key })).body.deliveries;
      return listed?.status === 'succeeded' && listed;
    }, 'the delivery recorded as succeeded');
    const { services } = stack();
    let read: Awaited<ReturnType<typeof services.webhookDeliveries.getWithEndpoint>> | undefined;
    const calls = await tableCallsOf(async () => {
      read = await services.webhookDeliveries.getWithEndpoint(id, delivery.id);
    });
    expect(calls).toEqual(['BatchGetCommand']);
    expect(read!.delivery).toMatchObject({ id: delivery.id, status: 'succeeded' });
    expect(read!.stored).toMatchObject({ endpoint: { id, enabled: true }, sealedSecret: expect.any(String) });
    // Gone, or an id that is no delivery's: nothing found, nothing thrown.
    expect(await services.webhookDeliveries.getWithEndpoint('wh_missing', delivery.id)).toEqual({ delivery: null, stored: null });
    expect(await services.webhookDeliveries.getWithEndpoint(id, 'not-a-delivery')).toEqual({ delivery: null, stored: null });
  });

  it.concurrent('delivers email.bounced for the bounce simulator, with the bounce details', async () => {
    const account = await newAccount({ email: `bounce+${Date.now()}@simulator.amazonses.com` });
    const hook = await receiver();
    await subscribe(account, hook, ['email.bounced']);
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'b', text: 't' },
    });
    // A send's pipeline (send worker, SES, its event, the router): as long as any pipeline wait (a run's busiest minutes took over 15 s).
    const [request] = await hook.waitForRequests(1, DEFAULT_WAIT_MS);
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      type: 'email.bounced',
      data: { email_id: send.body.id, status: 'bounced', bounce_type: 'hard', bounce_reason: expect.stringContaining('550') },
    });
    // Only the subscribed type: no sent event arrives.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(typesOf(hook.requests)).toEqual(['email.bounced']);
  });

  it.concurrent('retries a failing endpoint on the schedule, logs every attempt, then fails; a replay gets the full schedule again and delivers once the endpoint recovers', async () => {
    const account = await newAccount();
    const hook = await receiver();
    hook.setResponder(() => ({ status: 503, body: 'down for maintenance' }));
    const { id } = await subscribe(account, hook, ['email.scheduled']);
    await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${SANDBOX}`,
        to: account.email,
        subject: 's',
        text: 't',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    // 1 try + 5 retries.
    const requests = await hook.waitForRequests(6, 30_000);
    const gaps = requests.slice(1).map((r, i) => r.receivedAt.getTime() - requests[i]!.receivedAt.getTime());
    // The shortened 1 s delays hold (the queue's delay: no load makes a retry come sooner). How soon the 0 s retry
    // comes is the load's (1.1 s beside three busy files, 2.9 s in a whole run, against 1.0 s for a 1 s one): the schedule's delays
    // themselves are test/unit/webhooks/retry-schedule.test.ts's.
    for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(900);
    const ids = new Set(requests.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1); // stable across retries
    const delivery = await waitFor(async () => {
      const list = await api('GET', `/webhooks/${id}/deliveries`, { key: account.key });
      const first = list.body.deliveries?.[0];
      return first?.status === 'failed' ? first : undefined;
    }, 'delivery failed');
    expect(delivery.attempts).toHaveLength(6);
    expect(delivery.attempts[0]).toMatchObject({
      attempt: 1,
      status_code: 503,
      response_excerpt: 'down for maintenance',
      error: null,
      duration_ms: expect.any(Number),
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hook.requests).toHaveLength(6); // nothing after the last retry

    // A replay gets the whole retry schedule again.
    const replayFailing = await api('POST', `/webhooks/${id}/deliveries/${delivery.id}/replay`, { key: account.key });
    expect(replayFailing.status).toBe(202);
    await hook.waitForRequests(12, 30_000);
    await waitFor(
      async () => (await api('GET', `/webhooks/${id}/deliveries/${delivery.id}`, { key: account.key })).body.delivery?.status === 'failed',
      'failed again',
    );

    hook.setResponder(() => ({ status: 204 }));
    const replay = await api('POST', `/webhooks/${id}/deliveries/${delivery.id}/replay`, { key: account.key });
    expect(replay.status).toBe(202);
    await hook.waitForRequests(13, 15_000);
    const after = await waitFor(async () => {
      const list = await api('GET', `/webhooks/${id}/deliveries`, { key: account.key });
      return list.body.deliveries[0].status === 'succeeded' ? list.body.deliveries[0] : undefined;
    }, 'replayed delivery succeeded');
    expect(after.attempts.at(-1)).toMatchObject({ status_code: 204 });
  });

  it.concurrent('does not let a dead endpoint delay other endpoints', async () => {
    const account = await newAccount();
    const dead = await receiver();
    dead.setResponder(() => ({ status: 200, delayMs: Infinity }));
    const alive = await receiver();
    await subscribe(account, dead);
    await subscribe(account, alive);
    const sends = await Promise.all(
      [1, 2, 3].map((i) =>
        api('POST', '/emails', { key: account.key, body: { from: `a@${SANDBOX}`, to: account.email, subject: `iso${i}`, text: 't' } }),
      ),
    );
    expect(sends.every((s) => s.status === 200)).toBe(true);
    // sent + delivered for each, while the dead one hangs for 10 s per attempt (WEBHOOK_TIMEOUT_MS): all
    // six reach the live endpoint before the dead endpoint's first attempt has timed out. Measured from
    // that attempt, not from the sends, so a loaded machine's slower pipeline does not count against it.
    const [received, deadAttempts] = await Promise.all([alive.waitForRequests(6, 30_000), dead.waitForRequests(1, 30_000)]);
    const firstDeadAttempt = deadAttempts[0]!.receivedAt.getTime();
    expect(received[5]!.receivedAt.getTime() - firstDeadAttempt).toBeLessThan(10_000);
  });

  it.concurrent('stops pending retries when the endpoint is disabled', async () => {
    const account = await newAccount();
    const hook = await receiver();
    hook.setResponder(() => ({ status: 500 }));
    const { id } = await subscribe(account, hook, ['email.scheduled']);
    await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${SANDBOX}`,
        to: account.email,
        subject: 's',
        text: 't',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    await hook.waitForRequests(2, 10_000);
    await api('PATCH', `/webhooks/${id}`, { key: account.key, body: { enabled: false } });
    const count = hook.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(hook.requests.length).toBeLessThanOrEqual(count + 1); // at most one attempt already in flight
    const list = await api('GET', `/webhooks/${id}/deliveries`, { key: account.key });
    expect(list.body.deliveries[0].status).toBe('cancelled');
  });

  // SSRF at delivery.
  it.concurrent('resolves the host again at delivery and refuses when it now points to a private address (DNS rebinding)', async () => {
    const account = await newAccount();
    const hook = await startHttpsReceiver(certs());
    const host = 'rebind.webhook-delivery.test';
    try {
      await api('PUT', '/_local/dns/records', { body: { name: host, type: 'A', values: ['127.0.0.1'] } });
      const url = `https://${host}:${hook.port}/webhook`;
      const created = await api('POST', '/webhooks', { key: account.key, body: { url, events: ['email.sent'] } });
      expect(created.status).toBe(200);
      await api('POST', '/emails/test', { key: account.key, body: { event: 'email.sent' } });
      await hook.waitForRequests(1, 10_000);

      // The name now points into a private network: the next delivery must not go there.
      await api('PUT', '/_local/dns/records', { body: { name: host, type: 'A', values: ['10.0.0.5'] } });
      const test = await api('POST', '/emails/test', { key: account.key, body: { event: 'email.sent' } });
      const delivery = await waitFor(async () => {
        const list = await api('GET', `/webhooks/${created.body.webhook.id}/deliveries`, { key: account.key });
        const latest = list.body.deliveries.find((d: { event_id: string }) => d.event_id === test.body.id);
        return latest?.attempts.length ? latest : undefined;
      }, 'refused attempt logged');
      expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/private|forbidden|refused/i) });
      expect(hook.requests).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  // POST /emails/test.
  it.concurrent('builds the payload of any event, from a real email when given, and delivers it unless told not to', async () => {
    const account = await newAccount();
    const hook = await startHttpsReceiver(certs());
    try {
      await subscribe(account, hook, ['email.bounced', 'automation.failed']);
      const sample = await api('POST', '/emails/test', { key: account.key, body: { event: 'automation.failed', deliver: false } });
      expect(sample.status).toBe(200);
      expect(sample.body).toMatchObject({
        queued: false,
        payload: { type: 'automation.failed', data: { status: 'failed', automation_id: expect.any(String), error: expect.any(String) } },
      });

      const send = await api('POST', '/emails', {
        key: account.key,
        body: { from: `a@${SANDBOX}`, to: account.email, subject: 'real', text: 't' },
      });
      const real = await api('POST', '/emails/test', { key: account.key, body: { event: 'email.bounced', email_id: send.body.id } });
      expect(real.body).toMatchObject({
        queued: true,
        payload: { type: 'email.bounced', data: { email_id: send.body.id, subject: 'real', status: 'bounced' } },
      });
      const [request] = await hook.waitForRequests(1, 10_000);
      expect(JSON.parse(request!.body)).toEqual(real.body.payload);

      expect((await api('POST', '/emails/test', { key: account.key, body: { event: 'email.nope' } })).status).toBe(400);
      expect(
        (await api('POST', '/emails/test', { key: account.key, body: { event: 'email.sent', email_id: 'msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ' } }))
          .status,
      ).toBe(404);
      const limited = await api('POST', '/api-keys', { key: account.key, body: { name: 'w', scopes: ['webhooks:write'] } });
      expect((await api('POST', '/emails/test', { key: limited.body.secret, body: { event: 'email.sent' } })).status).toBe(403);
      expect(hook.requests).toHaveLength(1); // no email was sent, nothing else delivered
    } finally {
      await hook.close();
    }
  });
});
