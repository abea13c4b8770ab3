/**
 * The official mailgun.js SDK (v14), unmodified, with the `form-data` package, pointed at this service with
 * only its url and key changed: messages.create sends (record and webhooks as an API send of the same
 * content), attachments, a scheduled send, batch sending with recipient-variables, a template by the
 * import's alias, and our refusals seen by the SDK as Mailgun's errors (docs/compat.md, "Mailgun").
 */
import FormData from 'form-data';
import Mailgun from 'mailgun.js';
import { verifiedDomain } from './harness/domains';
import { api, emailOf, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox, webhooksOfBoth, type ReceivedWebhook } from './harness/webhook-inbox';

const SANDBOX_DOMAIN = 'sandbox.mailservice.dev';
const SANDBOX = `a@${SANDBOX_DOMAIN}`;
const EVENTS = ['email.sent', 'email.delivered'];

type MailgunClient = ReturnType<InstanceType<typeof Mailgun>['client']>;
const clientFor = (key: string): MailgunClient => new Mailgun(FormData).client({ username: 'api', key, url: stack().apiUrl });

/** `<msg_...@domain>` -> `msg_...` (docs/compat.md, "Mailgun": how a caller finds the email). */
const emailIdOf = (id: string | undefined) => /^<(msg_[^@]+)@[^>]+>$/.exec(id ?? '')?.[1] ?? `not a Mailgun id: ${id}`;

/** A raw request to the stack (the harness's contract check leaves the provider doors to tests like this one). */
async function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(path, stack().apiUrl), { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: response.status, text: await response.text() };
}

/** The SDK's error for a call expected to fail. */
async function failureOf(call: Promise<unknown>): Promise<{ status: number; details: string; type: string }> {
  try {
    await call;
  } catch (error) {
    return error as { status: number; details: string; type: string };
  }
  throw new Error('expected the SDK call to fail');
}

/** What a record and an event should share between a Mailgun send and an API send (ids and times aside). */
const comparable = (email: Record<string, unknown>) => ({
  from: email.from,
  to: email.to,
  cc: email.cc,
  bcc: email.bcc,
  reply_to: email.reply_to,
  subject: email.subject,
  tags: email.tags,
  status: email.status,
  category: email.category,
  tenant: email.tenant,
});
const eventShape = (event: ReceivedWebhook) => ({
  type: event.type,
  from: event.data.from,
  to: event.data.to,
  subject: event.data.subject,
  tags: event.data.tags,
  status: event.data.status,
});

describe('the mailgun.js SDK against this service', () => {
  let account: TestAccount;
  let mg: MailgunClient;
  let received: () => Promise<ReceivedWebhook[]>;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    mg = clientFor(account.key);
    received = await webhookInbox(account, EVENTS);
  });

  it('sends with messages.create: delivered, recorded and reported as an API send of the same content', async () => {
    const result = await mg.messages.create(SANDBOX_DOMAIN, {
      from: `Shop <${SANDBOX}>`,
      to: [account.email],
      subject: 'mailgun sdk',
      text: 'hello from mailgun.js',
      html: '<p>hello from mailgun.js</p>',
      'o:tag': ['welcome'],
      'v:order_id': 'A17',
      'h:X-Campaign': 'spring',
      'h:Reply-To': 'help@example.com',
    });
    expect(result).toMatchObject({ status: 200, message: 'Queued. Thank you.' });
    expect(result.id).toMatch(new RegExp(`^<msg_[0-9A-Z]+@${SANDBOX_DOMAIN.replace(/\./g, '\\.')}>$`));
    const id = emailIdOf(result.id);

    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `Shop <${SANDBOX}>`,
        to: [account.email],
        subject: 'mailgun sdk',
        text: 'hello from mailgun.js',
        html: '<p>hello from mailgun.js</p>',
        tags: [
          { name: 'tag', value: 'welcome' },
          { name: 'order_id', value: 'A17' },
        ],
        headers: { 'X-Campaign': 'spring' },
        reply_to: ['help@example.com'],
      },
    });
    expect(viaApi.status).toBe(200);

    const [mailgunEmail, apiEmail] = await Promise.all([
      waitForStatus(account, id, 'delivered'),
      waitForStatus(account, viaApi.body.id, 'delivered'),
    ]);
    expect(comparable(mailgunEmail)).toEqual(comparable(apiEmail));
    expect(mailgunEmail).toMatchObject({
      from: `Shop <${SANDBOX}>`,
      to: [account.email],
      subject: 'mailgun sdk',
      reply_to: ['help@example.com'],
      tags: [
        { name: 'tag', value: 'welcome' },
        { name: 'order_id', value: 'A17' },
      ],
    });

    // email.sent and email.delivered of both sends, the same.
    const [mine, theirs] = await webhooksOfBoth(received, [id, viaApi.body.id], eventShape);
    expect(mine).toEqual(theirs);
    expect(mine.map((event) => event.type)).toEqual(['email.delivered', 'email.sent']);
  });

  it('works with the global FormData as well as the form-data package', async () => {
    const client = new Mailgun(globalThis.FormData).client({ username: 'api', key: account.key, url: stack().apiUrl });
    const result = await client.messages.create(SANDBOX_DOMAIN, {
      from: SANDBOX,
      to: [account.email],
      subject: 'global FormData',
      text: 'x',
      'o:tag': ['native'],
    });
    expect(result).toMatchObject({ status: 200, message: 'Queued. Thank you.' });
    const email = await waitForStatus(account, emailIdOf(result.id), 'delivered');
    expect(email).toMatchObject({ subject: 'global FormData', tags: [{ name: 'tag', value: 'native' }] });
  });

  it('sends attachments and inline files as files of the email', async () => {
    const result = await mg.messages.create(SANDBOX_DOMAIN, {
      from: SANDBOX,
      to: account.email,
      subject: 'files',
      html: '<p><img src="cid:logo.png"></p>',
      attachment: [{ filename: 'notes.txt', data: Buffer.from('some notes') }],
      inline: [{ filename: 'logo.png', data: Buffer.from([137, 80, 78, 71]) }],
    });
    const email = await waitForStatus(account, emailIdOf(result.id), 'delivered');
    expect(email.attachments).toEqual([
      expect.objectContaining({ filename: 'notes.txt', size: 10, content_id: null }),
      expect.objectContaining({ filename: 'logo.png', size: 4, content_id: 'logo.png' }),
    ]);
  });

  it('schedules with o:deliverytime (RFC 2822)', async () => {
    const at = new Date(Date.now() + 3 * 3600_000);
    at.setUTCMilliseconds(0);
    const result = await mg.messages.create(SANDBOX_DOMAIN, {
      from: SANDBOX,
      to: account.email,
      subject: 'later',
      text: 'x',
      'o:deliverytime': at.toUTCString(),
    });
    const email = await emailOf(account, emailIdOf(result.id));
    expect(email.status).toBe('scheduled');
    expect(email.scheduled_at).toBe(at.toISOString());
  });

  it('sends from a template by the alias the Mailgun import gives it', async () => {
    const created = await api('POST', '/templates', {
      key: account.key,
      body: {
        alias: 'order-receipt',
        name: 'Order Receipt',
        subject: 'Receipt for {{user_name}}',
        html: '<p>Thanks {{user_name}}</p>',
        variables: [{ key: 'user_name', type: 'string' }],
      },
    });
    expect(created.status).toBeLessThan(300);
    const published = await api('POST', '/templates/order-receipt/publish', { key: account.key });
    expect(published.status).toBe(200);
    const result = await mg.messages.create(SANDBOX_DOMAIN, {
      from: SANDBOX,
      to: account.email,
      template: 'Order Receipt',
      't:variables': JSON.stringify({ user: { name: 'Ann' } }),
    });
    const email = await waitForStatus(account, emailIdOf(result.id), 'delivered');
    expect(email.subject).toBe('Receipt for Ann');
  });

  it('sends one email per recipient with recipient-variables (batch sending)', async () => {
    const unlocked = await newAccount({ plan: 'pro', paymentMethod: true });
    const domain = await verifiedDomain(unlocked);
    const client = clientFor(unlocked.key);
    const [ann, bob] = [`ann-${Date.now()}@example.com`, `bob-${Date.now()}@example.com`];
    const result = await client.messages.create(domain.name, {
      from: `news@${domain.name}`,
      to: [ann, bob],
      subject: 'Hi %recipient.first%',
      text: 'Code %recipient.code%',
      'recipient-variables': JSON.stringify({ [ann]: { first: 'Ann', code: 1 }, [bob]: { first: 'Bob', code: 2 } }),
    });
    expect(result).toMatchObject({ status: 200, message: 'Queued. Thank you.' });
    expect(result.id).toMatch(new RegExp(`^<msg_.+@${domain.name.replace(/\./g, '\\.')}>$`));
    const listed = await waitFor(async () => {
      const list = await api('GET', '/emails?limit=10', { key: unlocked.key });
      const mine = (list.body.emails as { to: string[]; subject: string }[]).filter((email) => email.subject.startsWith('Hi '));
      if (mine.length < 2) throw new Error(`${mine.length} emails so far`);
      return mine;
    }, 'both emails of the batch');
    expect(listed.map((email) => [email.to, email.subject]).sort()).toEqual([
      [[ann], 'Hi Ann'],
      [[bob], 'Hi Bob'],
    ]);
  });

  it("answers a bad key 401 (the SDK sees Mailgun's Forbidden)", async () => {
    const error = await failureOf(
      clientFor('svc_not_a_real_key_000000000000000000').messages.create(SANDBOX_DOMAIN, {
        from: SANDBOX,
        to: account.email,
        subject: 'x',
        text: 'x',
      }),
    );
    expect(error).toMatchObject({ type: 'MailgunAPIError', status: 401, details: 'Forbidden' });
  });

  it('answers a domain this account does not have 404 Domain not found', async () => {
    const error = await failureOf(
      mg.messages.create('not-mine.example.net', { from: 'a@not-mine.example.net', to: account.email, subject: 'x', text: 'x' }),
    );
    expect(error).toMatchObject({ status: 404, details: 'Domain not found: not-mine.example.net' });
    const otherPath = await failureOf(
      mg.messages.create('not-mine.example.net', { from: SANDBOX, to: account.email, subject: 'x', text: 'x' }),
    );
    expect(otherPath).toMatchObject({ status: 404, details: 'Domain not found: not-mine.example.net' });
  });

  it('answers an added but unverified sender domain 403', async () => {
    const name = `unverified-${Date.now()}.example.org`;
    expect((await api('POST', '/domains', { key: account.key, body: { name } })).status).toBe(201);
    const error = await failureOf(mg.messages.create(name, { from: `a@${name}`, to: account.email, subject: 'x', text: 'x' }));
    expect(error.status).toBe(403);
    expect(error.details).toMatch(/not verified/);
  });

  it('answers an invalid address, a missing field and an unsupported option 400 {message}', async () => {
    const invalid = await failureOf(mg.messages.create(SANDBOX_DOMAIN, { from: SANDBOX, to: 'not an address', subject: 'x', text: 'x' }));
    expect(invalid.status).toBe(400);
    expect(invalid.details).toMatch(/to: .*not a valid email address/);
    const missing = await failureOf(mg.messages.create(SANDBOX_DOMAIN, { to: account.email, subject: 'x', text: 'x' } as never));
    expect(missing).toMatchObject({ status: 400, details: "'from' parameter is missing" });
    const testmode = await failureOf(
      mg.messages.create(SANDBOX_DOMAIN, { from: SANDBOX, to: account.email, subject: 'x', text: 'x', 'o:testmode': true }),
    );
    expect(testmode.status).toBe(400);
    expect(testmode.details).toMatch(/o:testmode/);
  });

  it('answers the sandbox refusing another recipient 403', async () => {
    const error = await failureOf(
      mg.messages.create(SANDBOX_DOMAIN, { from: SANDBOX, to: 'someone-else@example.com', subject: 'x', text: 'x' }),
    );
    expect(error.status).toBe(403);
    expect(error.details).toMatch(/sandbox sender/);
  });

  it("answers other paths under a domain with Mailgun's 404, and never takes SendGrid's /v3/mail/send", async () => {
    const auth = `Basic ${Buffer.from(`api:${account.key}`).toString('base64')}`;
    const other = await raw('GET', `/v3/${SANDBOX_DOMAIN}/events`, { authorization: auth });
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text)).toEqual({ message: expect.stringContaining('POST /v3/{domain}/messages') });
    const sendgrid = await raw(
      'POST',
      '/v3/mail/send',
      { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      'from=a',
    );
    expect(sendgrid.text).not.toContain('/v3/{domain}/messages');
    expect(sendgrid.text).not.toContain('Forbidden');
  });

  it('takes application/x-www-form-urlencoded too', async () => {
    const body = new URLSearchParams([
      ['from', SANDBOX],
      ['to', account.email],
      ['subject', 'urlencoded'],
      ['text', 'x'],
      ['o:tag', 'form'],
    ]);
    const response = await raw(
      'POST',
      `/v3/${SANDBOX_DOMAIN}/messages`,
      {
        authorization: `Basic ${Buffer.from(`api:${account.key}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body.toString(),
    );
    expect(response.status).toBe(200);
    const answer = JSON.parse(response.text) as { id: string };
    const email = await emailOf(account, emailIdOf(answer.id));
    expect(email).toMatchObject({ subject: 'urlencoded', tags: [{ name: 'tag', value: 'form' }] });
  });
});
