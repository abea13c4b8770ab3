/**
 * The official `@sendgrid/mail` SDK (v8), unmodified, pointed at this service with only its base URL and
 * key changed (docs/compat.md, "SendGrid"): send (record and webhooks as an API send of the same content),
 * several personalizations (one email each, substitutions), attachments, send_at, asm, sandbox_mode, a
 * dynamic template found by its SendGrid id after a SendGrid import, and our refusals seen by the SDK as
 * SendGrid's errors (a bad key, an unverified sender, an invalid address, a missing content).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@sendgrid/client';
import { MailService, type MailDataRequired } from '@sendgrid/mail';
import { api, emailOf, newAccount, sesMessagesFor, stack, waitForStatus, type TestAccount } from './harness/stack';
import { importToEnd, providerKey, seedProvider } from './harness/imports';
import { webhookInbox, webhooksOfBoth, type ReceivedWebhook } from './harness/webhook-inbox';

const SANDBOX = 'a@sandbox.mailservice.dev';

/** The SDK as a migrating team sets it up: its key, then the base URL (setApiKey resets the base URL). */
function sendgridFor(key: string): MailService {
  const client = new Client();
  client.setApiKey(key);
  client.setDefaultRequest('baseUrl', stack().apiUrl);
  const mail = new MailService();
  mail.setClient(client);
  return mail;
}

/** The SDK's error (a ResponseError: code = status, response.body = SendGrid's error body) for a call expected to fail. */
async function failureOf(
  call: Promise<unknown>,
): Promise<{ code: number; response: { body: { errors: { message: string; field: string | null; help: string | null }[] } } }> {
  try {
    await call;
  } catch (error) {
    return error as never;
  }
  throw new Error('expected the SDK call to fail');
}

const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

/** What a record should share between a SendGrid send and an API send (ids and times aside). */
const comparable = (email: Record<string, unknown>) => ({
  from: email.from,
  to: email.to,
  cc: email.cc,
  bcc: email.bcc,
  reply_to: email.reply_to,
  tags: email.tags,
  status: email.status,
  category: email.category,
  tenant: email.tenant,
});
const eventShape = (event: ReceivedWebhook) => ({
  type: event.type,
  from: event.data.from,
  to: event.data.to,
  tags: event.data.tags,
  status: event.data.status,
});

/** The account's emails with this subject (newest first). */
async function emailsWithSubject(account: TestAccount, subject: string): Promise<Record<string, any>[]> {
  const listed = await api('GET', '/emails?limit=100', { key: account.key });
  expect(listed.status).toBe(200);
  return (listed.body.emails as Record<string, any>[]).filter((email) => email.subject === subject);
}

describe('the @sendgrid/mail SDK against this service', () => {
  let account: TestAccount;
  let sg: MailService;
  let received: () => Promise<ReceivedWebhook[]>;

  beforeAll(async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined); // the SDK warns that our key does not start with "SG."
    account = await newAccount({ plan: 'pro' });
    sg = sendgridFor(account.key);
    received = await webhookInbox(account, ['email.sent', 'email.delivered']);
  });

  it('sends: 202 with X-Message-Id, delivered, recorded and reported as an API send of the same content', async () => {
    const subject = unique('sendgrid sdk');
    const [response, body] = await sg.send({
      from: { email: SANDBOX, name: 'Shop' },
      to: { email: account.email, name: 'Owner' },
      replyTo: 'help@example.com',
      subject,
      text: 'hello from @sendgrid/mail',
      html: '<p>hello from @sendgrid/mail</p>',
      categories: ['welcome'],
      customArgs: { order_id: 'A17' },
      headers: { 'X-Campaign': 'spring' },
    });
    expect(response.statusCode).toBe(202);
    expect(body).toBe('');
    const id = response.headers['x-message-id'] as string;
    expect(id).toMatch(/^msg_/);

    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: { email: SANDBOX, name: 'Shop' },
        to: [`Owner <${account.email}>`],
        reply_to: ['help@example.com'],
        subject: `${subject} (api)`,
        text: 'hello from @sendgrid/mail',
        html: '<p>hello from @sendgrid/mail</p>',
        tags: [
          { name: 'category', value: 'welcome' },
          { name: 'order_id', value: 'A17' },
        ],
        headers: { 'X-Campaign': 'spring' },
      },
    });
    expect(viaApi.status).toBe(200);

    const [sendgridEmail, apiEmail] = await Promise.all([
      waitForStatus(account, id, 'delivered'),
      waitForStatus(account, viaApi.body.id, 'delivered'),
    ]);
    expect(comparable(sendgridEmail)).toEqual(comparable(apiEmail));
    expect(sendgridEmail).toMatchObject({
      from: `Shop <${SANDBOX}>`,
      subject,
      reply_to: ['help@example.com'],
      tags: [
        { name: 'category', value: 'welcome' },
        { name: 'order_id', value: 'A17' },
      ],
    });

    // email.sent and email.delivered of both sends, the same.
    const [mine, theirs] = await webhooksOfBoth(received, [id, viaApi.body.id], eventShape);
    expect(mine).toEqual(theirs);
    expect(mine.map((event) => event.type)).toEqual(['email.delivered', 'email.sent']);
  });

  it('sends one email per personalization, each with its own substitutions', async () => {
    const subject = unique('for -name-');
    const [response] = await sg.send({
      from: SANDBOX,
      subject,
      text: 'Dear -name-',
      personalizations: [
        { to: account.email, substitutions: { '-name-': 'Ann' } },
        { to: account.email, substitutions: { '-name-': 'Bob' } },
      ],
      substitutionWrappers: ['', ''],
    } as MailDataRequired);
    expect(response.statusCode).toBe(202);
    const first = response.headers['x-message-id'] as string;
    const ann = await waitForStatus(account, first, 'delivered');
    expect(ann.subject).toBe(subject.replace('-name-', 'Ann'));
    const bob = (await emailsWithSubject(account, subject.replace('-name-', 'Bob')))[0];
    expect(bob).toBeDefined();
    await waitForStatus(account, bob!.id, 'delivered');
  });

  it('sends attachments, inline ones with their content_id', async () => {
    const [response] = await sg.send({
      from: SANDBOX,
      to: account.email,
      subject: 'files',
      html: '<p><img src="cid:logo"></p>',
      attachments: [
        { content: Buffer.from('some notes').toString('base64'), filename: 'notes.txt', type: 'text/plain' },
        {
          content: Buffer.from([137, 80, 78, 71]).toString('base64'),
          filename: 'logo.png',
          type: 'image/png',
          disposition: 'inline',
          contentId: 'logo',
        },
      ],
    });
    const email = await waitForStatus(account, response.headers['x-message-id'] as string, 'delivered');
    expect(email.attachments).toEqual([
      expect.objectContaining({ filename: 'notes.txt', size: 10, content_id: null }),
      expect.objectContaining({ filename: 'logo.png', size: 4, content_id: 'logo' }),
    ]);
  });

  it('schedules with send_at', async () => {
    const at = Math.floor(Date.now() / 1000) + 3 * 3600;
    const [scheduled] = await sg.send({ from: SANDBOX, to: account.email, subject: 'later', text: 'x', sendAt: at });
    const email = await emailOf(account, scheduled.headers['x-message-id'] as string);
    expect(email.status).toBe('scheduled');
    expect(email.scheduled_at).toBe(new Date(at * 1000).toISOString());
  });

  it('sends asm as a product email with managed unsubscribe: a product opt-out drops it (202, as SendGrid), a plain send still goes', async () => {
    const [grouped] = await sg.send({ from: SANDBOX, to: account.email, subject: 'news', text: 'x', asm: { groupId: 17001 } });
    const groupedId = grouped.headers['x-message-id'] as string;
    await waitForStatus(account, groupedId, 'delivered');
    const [message] = await sesMessagesFor(groupedId);
    expect(message!.raw).toMatch(/^List-Unsubscribe:\s+<https?:\/\/[^>]+\/unsubscribe\//m); // folded: the token is long
    expect(message!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    const other = await newAccount({ plan: 'pro' });
    expect((await api('POST', '/suppressions', { key: other.key, body: { email: other.email, category: 'product' } })).status).toBe(201);
    const otherSg = sendgridFor(other.key);
    const [dropped] = await otherSg.send({ from: SANDBOX, to: other.email, subject: 'news', text: 'x', asm: { groupId: 17001 } });
    expect(dropped.statusCode).toBe(202);
    expect(await emailOf(other, dropped.headers['x-message-id'] as string)).toMatchObject({ status: 'failed', last_event: 'suppressed' });
    const [plain] = await otherSg.send({ from: SANDBOX, to: other.email, subject: 'receipt', text: 'x' });
    await waitForStatus(other, plain.headers['x-message-id'] as string, 'delivered');
  });

  it('validates without sending in sandbox_mode (200, empty), and refuses a bad request there too', async () => {
    const before = await api('GET', '/emails?limit=100', { key: account.key });
    const [response, body] = await sg.send({
      from: SANDBOX,
      to: account.email,
      subject: 'sandbox',
      text: 'x',
      mailSettings: { sandboxMode: { enable: true } },
    });
    expect(response.statusCode).toBe(200);
    expect(body).toBe('');
    const after = await api('GET', '/emails?limit=100', { key: account.key });
    expect(after.body.emails.length).toBe(before.body.emails.length);
    const bad = await failureOf(
      sg.send({ from: SANDBOX, to: 'not an address', subject: 'sandbox', text: 'x', mailSettings: { sandboxMode: { enable: true } } }),
    );
    expect(bad.code).toBe(400);
    expect(bad.response.body.errors[0]).toMatchObject({ field: 'personalizations.0.to.0.email' });
  });

  it('sends a dynamic template by its SendGrid id after a SendGrid import, dynamic_template_data flattened', async () => {
    const templateId = `d-${randomUUID().replace(/-/g, '')}`;
    const providerApiKey = providerKey('SG.');
    const name = unique('Welcome mail');
    await seedProvider({
      provider: 'sendgrid',
      api_key: providerApiKey,
      data: {
        templates: [
          {
            id: templateId,
            name,
            generation: 'dynamic',
            updated_at: '2024-12-03 09:00:00',
            versions: [
              {
                id: randomUUID(),
                user_id: 1,
                template_id: templateId,
                active: 1,
                name: 'v1',
                generate_plain_content: false,
                subject: 'Welcome {{user.first_name}}',
                html_content: '<p>Hi {{user.first_name}}</p>',
                plain_content: 'Hi {{user.first_name}}',
                updated_at: '2024-12-03 09:00:00',
                editor: 'code',
              },
            ],
          },
        ],
      },
    });
    const answers = await importToEnd(account, { provider: 'sendgrid', api_key: providerApiKey, resources: ['templates'] });
    const imported = answers.at(-1)!.body.migration.templates.items.find((item: { source_id: string }) => item.source_id === templateId);
    expect(imported).toMatchObject({ status: 'imported', published: true });

    const [response] = await sg.send({
      from: SANDBOX,
      to: account.email,
      templateId,
      dynamicTemplateData: { user: { first_name: 'Ann' } },
    });
    expect(response.statusCode).toBe(202);
    const email = await waitForStatus(account, response.headers['x-message-id'] as string, 'delivered');
    expect(email.subject).toBe('Welcome Ann');

    const unknown = await failureOf(sg.send({ from: SANDBOX, to: account.email, templateId: 'd-00000000000000000000000000000000' }));
    expect(unknown.code).toBe(400);
    expect(unknown.response.body.errors[0]).toMatchObject({ field: 'template_id' });
  });

  it("answers our refusals as SendGrid's errors", async () => {
    const badKey = await failureOf(
      sendgridFor('svc_not_a_real_key_0000000000000000000000000000').send({ from: SANDBOX, to: account.email, subject: 's', text: 'x' }),
    );
    expect(badKey.code).toBe(401);
    expect(badKey.response.body).toEqual({ errors: [{ message: expect.any(String), field: null, help: null }] });

    const unverified = await failureOf(
      sg.send({ from: `a@${randomUUID().slice(0, 8)}.unverified.test`, to: account.email, subject: 's', text: 'x' }),
    );
    expect(unverified.code).toBe(403);
    expect(unverified.response.body.errors[0]).toMatchObject({ field: 'from', message: expect.stringMatching(/not verified/) });

    const invalid = await failureOf(sg.send({ from: SANDBOX, to: 'not an address', subject: 's', text: 'x' }));
    expect(invalid.code).toBe(400);
    expect(invalid.response.body.errors).toEqual([
      { message: expect.stringContaining('not a valid email address'), field: 'personalizations.0.to.0.email', help: null },
    ]);

    const noContent = await failureOf(sg.send({ from: SANDBOX, to: account.email, subject: 's' } as MailDataRequired));
    expect(noContent.code).toBe(400);
    expect(noContent.response.body.errors[0]).toMatchObject({ field: 'content' });

    const recipient = await failureOf(sg.send({ from: SANDBOX, to: 'someone-else@example.net', subject: 's', text: 'x' }));
    expect(recipient.code).toBe(403);
    expect(recipient.response.body.errors[0]).toMatchObject({ field: 'personalizations.0.to' });
  });

  it("answers SendGrid's 404 for a path it does not have", async () => {
    const client = new Client();
    client.setApiKey(account.key);
    client.setDefaultRequest('baseUrl', stack().apiUrl);
    const missing = await failureOf(client.request({ method: 'GET', url: '/v3/templates' }));
    expect(missing.code).toBe(404);
    expect(missing.response.body).toEqual({ errors: [{ message: 'resource not found', field: null, help: null }] });
  });
});
