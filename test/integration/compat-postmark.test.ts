/**
 * The official `postmark` SDK (v5), unmodified, pointed at this service with one of our keys: sendEmail,
 * sendEmailWithTemplate, sendEmailBatch, sendEmailBatchWithTemplates. What it sends is delivered, its
 * record and webhook events match those of a POST /emails of the same content, and our refusals reach
 * the SDK as its own errors (InvalidAPIKeyError, ApiInputError with Postmark's ErrorCode,
 * InactiveRecipientsError).
 */
import { Errors, ServerClient } from 'postmark';
import { api, emailOf, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox, type ReceivedWebhook } from './harness/webhook-inbox';

const SANDBOX = 'a@sandbox.mailservice.dev';

/** The SDK pointed at the stack: only the host (and scheme) and the key change. */
function postmarkClient(key: string): ServerClient {
  const url = new URL(stack().apiUrl);
  return new ServerClient(key, { requestHost: `${url.host}${url.pathname.replace(/\/$/, '')}`, useHttps: url.protocol === 'https:' });
}

/** The error a promise rejects with, or fails the test. */
async function rejectionOf(promise: Promise<unknown>): Promise<Errors.PostmarkError> {
  try {
    await promise;
  } catch (error) {
    return error as Errors.PostmarkError;
  }
  throw new Error('expected the SDK to throw');
}

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** What a record and a webhook show of an email that two doors should make the same. */
const comparable = (email: Record<string, any>) => ({
  from: email.from,
  to: email.to,
  cc: email.cc,
  reply_to: email.reply_to,
  subject: email.subject,
  tags: email.tags,
  status: email.status,
});

describe('the postmark SDK against this service', () => {
  let account: TestAccount;
  let client: ServerClient;
  let hooks: () => Promise<ReceivedWebhook[]>;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    client = postmarkClient(account.key);
    hooks = await webhookInbox(account, ['email.sent', 'email.delivered']);
  });

  it('sends with sendEmail: delivered, and its record and webhooks are those of the same POST /emails', async () => {
    const content = { subject: unique('same content'), html: '<p>hi</p>', text: 'hi' };
    const sent = await client.sendEmail({
      From: `Sender <${SANDBOX}>`,
      To: account.email,
      ReplyTo: 'reply@example.com',
      Subject: content.subject,
      HtmlBody: content.html,
      TextBody: content.text,
      Tag: 'welcome',
      Metadata: { order: 'ord-42' },
      Headers: [{ Name: 'X-Campaign', Value: 'spring' }],
      MessageStream: 'outbound',
      TrackOpens: true,
    });
    expect(sent).toMatchObject({ To: account.email, ErrorCode: 0, Message: 'OK' });
    expect(sent.MessageID).toMatch(/^msg_/);
    expect(Number.isNaN(Date.parse(sent.SubmittedAt))).toBe(false);

    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `Sender <${SANDBOX}>`,
        to: account.email,
        reply_to: 'reply@example.com',
        subject: content.subject,
        html: content.html,
        text: content.text,
        tags: [
          { name: 'tag', value: 'welcome' },
          { name: 'order', value: 'ord-42' },
        ],
        headers: { 'X-Campaign': 'spring' },
        category: 'transactional',
      },
    });
    expect(viaApi.status).toBe(200);

    const fromSdk = await waitForStatus(account, sent.MessageID, 'delivered');
    const fromApi = await waitForStatus(account, viaApi.body.id, 'delivered');
    expect(comparable(fromSdk)).toEqual(comparable(fromApi));
    expect(fromSdk).toMatchObject({
      from: `Sender <${SANDBOX}>`,
      to: [account.email],
      reply_to: ['reply@example.com'],
      tags: [
        { name: 'tag', value: 'welcome' },
        { name: 'order', value: 'ord-42' },
      ],
    });

    const eventsOf = async (id: string) => (await hooks()).filter((event) => event.data.email_id === id);
    const [sdkEvents, apiEvents] = await waitFor(
      async () => {
        const both = [await eventsOf(sent.MessageID), await eventsOf(viaApi.body.id)];
        return both.every((events) => events.length >= 2) && both;
      },
      'email.sent and email.delivered of both sends',
      30_000,
    );
    const shape = (events: ReceivedWebhook[]) =>
      events
        .map((event) => ({
          type: event.type,
          from: event.data.from,
          to: event.data.to,
          subject: event.data.subject,
          tags: event.data.tags,
          status: event.data.status,
        }))
        .sort((a, b) => a.type.localeCompare(b.type));
    expect(shape(sdkEvents!)).toEqual(shape(apiEvents!));
    expect(shape(sdkEvents!).map((event) => event.type)).toEqual(['email.delivered', 'email.sent']);
  });

  it('sends with sendEmailWithTemplate (TemplateAlias, a nested TemplateModel) in the broadcast stream', async () => {
    const alias = unique('receipt');
    const created = await api('POST', '/templates', {
      key: account.key,
      body: {
        alias,
        name: 'Receipt',
        subject: 'Receipt for {{user_name}}',
        text: 'Order {{order_id}} for {{user_name}}: {{items_0_sku}}',
        variables: [
          { key: 'user_name', type: 'string' },
          { key: 'order_id', type: 'string' },
          { key: 'items_0_sku', type: 'string' },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect((await api('POST', `/templates/${alias}/publish`, { key: account.key })).status).toBe(200);

    const sent = await client.sendEmailWithTemplate({
      From: SANDBOX,
      To: account.email,
      TemplateAlias: alias,
      TemplateModel: { user: { name: 'Jane' }, order_id: 'A-1', items: [{ sku: 'sku-9' }] },
      MessageStream: 'broadcast',
    });
    expect(sent).toMatchObject({ ErrorCode: 0, Message: 'OK' });
    const email = await waitForStatus(account, sent.MessageID, 'delivered');
    expect(email).toMatchObject({ subject: 'Receipt for Jane' });
  });

  it('sends the broadcast stream as product email (an opt-out refuses it, 406) and outbound as transactional', async () => {
    const other = await newAccount({ plan: 'pro' });
    expect((await api('POST', '/suppressions', { key: other.key, body: { email: other.email, category: 'product' } })).status).toBe(201);
    const otherClient = postmarkClient(other.key);
    const message = { From: SANDBOX, To: other.email, Subject: 'streams', TextBody: 't' };
    const broadcast = await rejectionOf(otherClient.sendEmail({ ...message, MessageStream: 'broadcast' }));
    expect(broadcast).toBeInstanceOf(Errors.InactiveRecipientsError);
    expect(broadcast).toMatchObject({ statusCode: 422, code: 406 });
    expect((await otherClient.sendEmail({ ...message, MessageStream: 'outbound' })).ErrorCode).toBe(0);
    expect((await otherClient.sendEmail(message)).ErrorCode).toBe(0);
  });

  it('sends Attachments with sendEmail; in a batch a message with attachments fails alone (300), as our batch refuses them', async () => {
    const attachment = { Name: 'note.txt', Content: Buffer.from('hello').toString('base64'), ContentType: 'text/plain', ContentID: null };
    const sent = await client.sendEmail({
      From: SANDBOX,
      To: account.email,
      Subject: 'with a file',
      TextBody: 'see file',
      Attachments: [attachment],
    });
    const email = await waitForStatus(account, sent.MessageID, 'delivered');
    expect(email.attachments).toEqual([expect.objectContaining({ filename: 'note.txt', content_type: 'text/plain', size: 5 })]);
    const results = await client.sendEmailBatch([
      { From: SANDBOX, To: account.email, Subject: 'batch file', TextBody: 'x', Attachments: [attachment] },
      { From: SANDBOX, To: account.email, Subject: 'batch plain', TextBody: 'y' },
    ]);
    expect(results.map((result) => result.ErrorCode)).toEqual([300, 0]);
    expect(results[0]!.Message).toContain('attachments are not allowed in batch sends');
  });

  it('sends a batch with sendEmailBatch: one answer per message, a bad one failing alone', async () => {
    const results = await client.sendEmailBatch([
      { From: SANDBOX, To: account.email, Subject: 'batch one', TextBody: '1' },
      { From: SANDBOX, To: 'not an address', Subject: 'batch bad', TextBody: '2' },
      { From: SANDBOX, To: account.email, Subject: 'batch three', TextBody: '3', MessageStream: 'nope' },
      { From: SANDBOX, To: account.email, Subject: 'batch four', HtmlBody: '<p>4</p>' },
    ]);
    expect(results).toHaveLength(4);
    expect(results[0]).toMatchObject({ ErrorCode: 0, Message: 'OK', To: account.email });
    expect(results[1]).toMatchObject({ ErrorCode: 300, Message: expect.stringContaining('To') });
    expect(results[2]).toMatchObject({ ErrorCode: 1235 });
    expect(results[3]).toMatchObject({ ErrorCode: 0, Message: 'OK' });
    for (const index of [0, 3])
      expect((await waitForStatus(account, results[index]!.MessageID, 'delivered')).subject).toBe(index === 0 ? 'batch one' : 'batch four');
  });

  it('sends with sendEmailBatchWithTemplates; a template that is not there is 1101 for its message only', async () => {
    const alias = unique('hello');
    expect(
      (
        await api('POST', '/templates', {
          key: account.key,
          body: { alias, name: 'Hello', subject: 'Hello {{name}}', text: 'Hi {{name}}', variables: [{ key: 'name', type: 'string' }] },
        })
      ).status,
    ).toBe(201);
    expect((await api('POST', `/templates/${alias}/publish`, { key: account.key })).status).toBe(200);
    const results = await client.sendEmailBatchWithTemplates([
      { From: SANDBOX, To: account.email, TemplateAlias: alias, TemplateModel: { name: 'Ann' } },
      { From: SANDBOX, To: account.email, TemplateAlias: unique('missing'), TemplateModel: {} },
      { From: SANDBOX, To: account.email, TemplateId: 424242, TemplateModel: {} },
    ]);
    expect(results.map((result) => result.ErrorCode)).toEqual([0, 1101, 1101]);
    expect((await emailOf(account, results[0]!.MessageID)).subject).toBe('Hello Ann');
  });

  it("answers a bad key as Postmark does: the SDK's InvalidAPIKeyError, ErrorCode 10", async () => {
    const error = await rejectionOf(
      postmarkClient('svc_not_a_real_key_0000000000000000').sendEmail({ From: SANDBOX, To: account.email, Subject: 's', TextBody: 't' }),
    );
    expect(error).toBeInstanceOf(Errors.InvalidAPIKeyError);
    expect(error).toMatchObject({ statusCode: 401, code: 10 });
  });

  it('answers an unverified sender with ErrorCode 400, an invalid address with 300, an unknown stream with 1235 (HTTP 422)', async () => {
    const unverified = await rejectionOf(
      client.sendEmail({ From: `me@${unique('unverified')}.example.com`, To: account.email, Subject: 's', TextBody: 't' }),
    );
    expect(unverified).toBeInstanceOf(Errors.ApiInputError);
    expect(unverified).toMatchObject({ statusCode: 422, code: 400 });

    const invalid = await rejectionOf(client.sendEmail({ From: SANDBOX, To: 'jane at example', Subject: 's', TextBody: 't' }));
    expect(invalid).toBeInstanceOf(Errors.InvalidEmailRequestError);
    expect(invalid).toMatchObject({ statusCode: 422, code: 300 });
    expect(invalid.message).toContain('To:');

    const stream = await rejectionOf(
      client.sendEmail({ From: SANDBOX, To: account.email, Subject: 's', TextBody: 't', MessageStream: 'marketing' }),
    );
    expect(stream).toMatchObject({ statusCode: 422, code: 1235 });

    const sandbox = await rejectionOf(client.sendEmail({ From: SANDBOX, To: 'someone@example.com', Subject: 's', TextBody: 't' }));
    expect(sandbox).toMatchObject({ statusCode: 422, code: 412 });
  });

  it("answers a suppressed recipient with the SDK's InactiveRecipientsError (406) naming it", async () => {
    const other = await newAccount({ plan: 'pro' });
    expect((await api('POST', '/suppressions', { key: other.key, body: { email: other.email } })).status).toBe(201);
    const error = await rejectionOf(postmarkClient(other.key).sendEmail({ From: SANDBOX, To: other.email, Subject: 's', TextBody: 't' }));
    expect(error).toBeInstanceOf(Errors.InactiveRecipientsError);
    expect(error).toMatchObject({ statusCode: 422, code: 406 });
    expect((error as Errors.InactiveRecipientsError).recipients).toEqual([other.email]);
  });

  it("refuses a batch over our 100 messages with Postmark's 410, sending nothing", async () => {
    const before = await api('GET', '/emails?limit=100', { key: account.key });
    const many = Array.from({ length: 101 }, (_, i) => ({ From: SANDBOX, To: account.email, Subject: `many ${i}`, TextBody: 'x' }));
    const error = await rejectionOf(client.sendEmailBatch(many));
    expect(error).toMatchObject({ statusCode: 422, code: 410 });
    const after = await api('GET', '/emails?limit=100', { key: account.key });
    expect(after.body.emails.length).toBe(before.body.emails.length);
  });
});
