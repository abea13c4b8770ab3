/** The walking skeleton of a send: POST /emails -> queue -> worker -> SES (emulator) -> events -> status. */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { api, emailOf, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { bucketKeys } from './harness/store-contents';

const SANDBOX = 'sandbox.mailservice.dev';

describe('POST /emails from the sandbox sender', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('accepts a send to the account email, delivers it through SES and reports delivered', async () => {
    const send = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `Acme <hello@${SANDBOX}>`,
        to: account.email,
        subject: 'Welcome aboard',
        html: '<p>Hello <b>there</b></p>',
        text: 'Hello there',
        headers: { 'X-Campaign': 'onboarding' },
        tags: [{ name: 'category', value: 'welcome' }],
      },
    });
    expect(send.status).toBe(200);
    expect(send.body).toEqual({ id: expect.stringMatching(/^msg_[0-9A-Z]{26}$/), status: 'sent' });

    const email = await waitForStatus(account, send.body.id, 'delivered');
    expect(email).toMatchObject({
      id: send.body.id,
      from: `Acme <hello@${SANDBOX}>`,
      to: [account.email],
      cc: [],
      bcc: [],
      reply_to: [],
      subject: 'Welcome aboard',
      status: 'delivered',
      last_event: 'delivered',
      bounce_reason: null,
      tags: [{ name: 'category', value: 'welcome' }],
      scheduled_at: null,
      cancelled_at: null,
      bounced_at: null,
      tenant: null,
    });
    for (const field of ['created_at', 'sent_at', 'delivered_at']) {
      expect(email[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(Date.parse(email.delivered_at)).toBeGreaterThanOrEqual(Date.parse(email.created_at));

    const [message, ...others] = await sesMessagesFor(send.body.id);
    expect(others).toHaveLength(0);
    expect(message!.configuration_set).toBe(stack().info.env.SES_CONFIGURATION_SET);
    expect(message!.to).toEqual([account.email]);
    expect(message!.raw).toMatch(/^Subject: Welcome aboard\r$/m);
    expect(message!.raw).toMatch(/^X-Campaign: onboarding\r$/m);
    expect(message!.raw).toContain('Hello there');
    // The configuration set does not subscribe to Send: the worker records `sent` from SES's answer.
    expect(message!.events.map((event) => event.type)).toEqual(['Delivery']);
  });

  it('accepts the spec aliases (htmlBody, replyTo, from object, tags object)', async () => {
    const send = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: { email: `team@${SANDBOX}`, name: 'The Team' },
        to: [account.email],
        subject: 'Aliases',
        htmlBody: '<p>x</p>',
        replyTo: 'help@example.com',
        tags: { kind: 'alias_test' },
      },
    });
    expect(send.status).toBe(200);
    const email = await emailOf(account, send.body.id);
    expect(email.from).toBe(`The Team <team@${SANDBOX}>`);
    expect(email.reply_to).toEqual(['help@example.com']);
    expect(email.tags).toEqual([{ name: 'kind', value: 'alias_test' }]);
  });

  it('refuses any other recipient of a sandbox send with 403', async () => {
    for (const body of [
      { to: 'stranger@example.com' },
      { to: [account.email, 'stranger@example.com'] },
      { to: account.email, cc: 'stranger@example.com' },
      { to: account.email, bcc: ['stranger@example.com'] },
    ]) {
      const response = await api('POST', '/emails', { key: account.key, body: { from: `a@${SANDBOX}`, subject: 's', text: 't', ...body } });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('recipient_not_allowed');
      expect(response.body.error.details.refused_recipients).toEqual(['stranger@example.com']);
    }
  });

  it('refuses a from domain the account has not verified with 403', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'me@unverified-example.com', to: account.email, subject: 's', text: 't' },
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'domain_not_verified', details: { domain: 'unverified-example.com' } });
  });

  it("reports an address on SES's suppression list (the suppression-list simulator) as failed/not_sent", async () => {
    const refused = await newAccount({ email: `suppressionlist+${Date.now()}@simulator.amazonses.com` });
    const send = await api('POST', '/emails', {
      key: refused.key,
      body: { from: `a@${SANDBOX}`, to: refused.email, subject: 'r', text: 't' },
    });
    const email = await waitForStatus(refused, send.body.id, 'failed');
    expect(email).toMatchObject({ last_event: 'failed', bounce_type: 'not_sent', delivered_at: null, bounced_at: expect.any(String) });
  });

  it('reports a hard bounce (the SES bounce simulator) as bounced/hard and suppresses the address', async () => {
    const bouncer = await newAccount({ email: `bounce+${Date.now()}@simulator.amazonses.com` });
    const send = await api('POST', '/emails', {
      key: bouncer.key,
      body: { from: `a@${SANDBOX}`, to: bouncer.email, subject: 'b', text: 't' },
    });
    expect(send.status).toBe(200);
    const email = await waitForStatus(bouncer, send.body.id, 'bounced');
    expect(email).toMatchObject({ last_event: 'bounced', bounce_type: 'hard', delivered_at: null });
    expect(email.bounce_reason).toContain('550');
    expect(email.bounced_at).not.toBeNull();
    // Hard bounces put the address on the suppression list: the next send is refused.
    const list = await waitFor(async () => {
      const response = await api('GET', `/suppressions?email=${encodeURIComponent(bouncer.email)}`, { key: bouncer.key });
      return response.body.suppressions?.length ? response.body.suppressions : undefined;
    }, 'suppression');
    expect(list[0]).toMatchObject({ email: bouncer.email, reason: 'bounce', scope: 'account' });
    const again = await api('POST', '/emails', {
      key: bouncer.key,
      body: { from: `a@${SANDBOX}`, to: bouncer.email, subject: 'b', text: 't' },
    });
    expect(again.status).toBe(422);
    expect(again.body.error.details).toMatchObject({ suppressed: [bouncer.email], email_id: expect.stringMatching(/^msg_/) });
    const refused = await emailOf(bouncer, again.body.error.details.email_id);
    expect(refused).toMatchObject({ status: 'failed', last_event: 'suppressed' });
  });

  it('keeps a complained email delivered with last_event complained, and suppresses the address', async () => {
    const complainer = await newAccount({ email: `complaint+${Date.now()}@simulator.amazonses.com` });
    const send = await api('POST', '/emails', {
      key: complainer.key,
      body: { from: `a@${SANDBOX}`, to: complainer.email, subject: 'c', text: 't' },
    });
    // SES publishes Delivery and Complaint separately; they may be applied in either order, and the
    // email converges to delivered + complained.
    const email = await waitFor(async () => {
      const current = await emailOf(complainer, send.body.id);
      return current.last_event === 'complained' && current.status === 'delivered' ? current : undefined;
    }, 'complaint and delivery');
    expect(email).toMatchObject({ status: 'delivered', last_event: 'complained' });
    expect(email.delivered_at).not.toBeNull();
    const list = await waitFor(
      async () =>
        (await api('GET', `/suppressions?email=${encodeURIComponent(complainer.email)}`, { key: complainer.key })).body.suppressions?.[0],
      'suppression',
    );
    expect(list.reason).toBe('complaint');
  });

  it('stores a large body outside the item and still delivers it intact', async () => {
    const big = 'x'.repeat(300 * 1024);
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'big', text: `start-${big}-end` },
    });
    expect(send.status).toBe(200);
    await waitForStatus(account, send.body.id, 'delivered');
    const [message] = await sesMessagesFor(send.body.id);
    const unfolded = message!.raw.replace(/=\r\n/g, '');
    expect(unfolded).toContain('start-xxxx');
    expect(unfolded).toContain('x-end');
    expect(unfolded.split('x').length - 1).toBeGreaterThanOrEqual(300 * 1024);
  });

  it("a large body is stored once under the account's class, its PUT beside the send's read from a key's second send; a refused send leaves no object", async () => {
    // No other file keeps emails 14 days: this class's bodies are this test's (shared/usecases/send/early-body.ts).
    const own = await newAccount();
    const patched = await api('PATCH', '/account', { key: own.key, body: { retention: { emails_days: 14 } } });
    expect(patched.status).toBe(200);
    const html = `<p>${'receipt line '.repeat(400)}</p>`;
    const ids: string[] = [];
    for (const subject of ['first', 'second']) {
      const send = await api('POST', '/emails', { key: own.key, body: { from: `a@${SANDBOX}`, to: own.email, subject, html } });
      expect(send.status).toBe(200);
      ids.push(send.body.id);
    }
    const refused = await api('POST', '/emails', {
      key: own.key,
      body: { from: 'a@not-verified.example', to: own.email, subject: 'no', html },
    });
    expect(refused.status).toBe(403);
    expect((await bucketKeys('retention/14d/bodies/')).sort()).toEqual(ids.map((id) => `retention/14d/bodies/${id}.json`).sort());
    for (const id of ids) {
      await waitForStatus(own, id, 'delivered');
      const [message] = await sesMessagesFor(id);
      expect(message!.raw.replace(/=\r\n/g, '')).toContain('receipt line receipt line');
    }
  });

  it('sends an email once even when its send message is delivered twice', async () => {
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'dup', text: 't' },
    });
    const { info } = stack();
    const sqs = new SQSClient({ endpoint: info.endpoints.sqs, region: info.region });
    // Duplicate deliveries racing the original message.
    await Promise.all(
      [1, 2, 3].map(() =>
        sqs.send(new SendMessageCommand({ QueueUrl: info.env.SEND_QUEUE_URL, MessageBody: JSON.stringify({ email_id: send.body.id }) })),
      ),
    );
    await waitForStatus(account, send.body.id, 'delivered');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await sesMessagesFor(send.body.id)).toHaveLength(1);
    sqs.destroy();
  });
});

describe('GET /emails/{id}', () => {
  it('is 404 for an id of another account and for unknown ids', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const send = await api('POST', '/emails', { key: owner.key, body: { from: `a@${SANDBOX}`, to: owner.email, subject: 's', text: 't' } });
    const foreign = await api('GET', `/emails/${send.body.id}`, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const unknown = await api('GET', '/emails/msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ', { key: owner.key });
    expect(unknown.status).toBe(404);
  });
});
