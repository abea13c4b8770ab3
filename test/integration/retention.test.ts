/**
 * Retention on a stack of its own whose clock the test moves (PUT /_local/clock; docs/retention.md): an
 * account set to the shortest retention (1 day) sends an email (a large body and an attachment in the
 * bucket, a webhook delivery logged), receives one at its MX, imports suppressions and suppresses an
 * address. Three days later by the functions' clock the records read as absent before any sweep (TTL
 * is lazy); after the local cloud's DynamoDB TTL sweep and S3 lifecycle sweep they are gone from the
 * table and the bucket (the received email's content, attachment and its copy of the raw message too),
 * while the usage counters and the suppressions remain; the MX listener's shared raw message goes by its
 * own rule (30 days). PATCH /account's bounds and scopes are refused.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { useOwnStack } from './harness/own-stack';

const SANDBOX = 'sandbox.mailservice.dev';
const DAY_MS = 86_400_000;

jest.setTimeout(180_000);

describe('retention (moved clock, stack of its own)', () => {
  useOwnStack('mailservice-retention-');
  // The harness modules read TEST_STACK_DATA_DIR on first use: point them at this test's stack.
  let harness: typeof import('./harness/stack');
  let inbound: typeof import('./harness/inbound');
  let imports: typeof import('./harness/imports');
  let usage: typeof import('./harness/usage');
  let webhooks: typeof import('./harness/webhook-inbox');
  let store: typeof import('./harness/store-contents');

  beforeAll(async () => {
    harness = await import('./harness/stack');
    inbound = await import('./harness/inbound');
    imports = await import('./harness/imports');
    usage = await import('./harness/usage');
    webhooks = await import('./harness/webhook-inbox');
    store = await import('./harness/store-contents');
  });

  it('refuses PATCH /account out of bounds (400 naming the field) and without the full scope (403)', async () => {
    const account = await harness.newAccount();
    const tooLong = await harness.api('PATCH', '/account', { key: account.key, body: { retention: { emails_days: 90 } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('validation_error');
    expect(tooLong.body.error.details.fields[0].field).toBe('retention.emails_days');
    const notAClass = await harness.api('PATCH', '/account', { key: account.key, body: { retention: { imports_days: 3 } } });
    expect(notAClass.status).toBe(400);
    expect(notAClass.body.error.message).toMatch(/retention\.imports_days/);
    const unknown = await harness.api('PATCH', '/account', { key: account.key, body: { retention: { forever: true } } });
    expect(unknown.status).toBe(400);

    const readOnly = await harness.api('POST', '/api-keys', { key: account.key, body: { name: 'ro', scopes: ['account:read'] } });
    const sender = await harness.api('POST', '/api-keys', { key: account.key, body: { name: 'send', scopes: ['emails:send'] } });
    expect((await harness.api('GET', '/account', { key: readOnly.body.secret })).status).toBe(200);
    const refused = await harness.api('PATCH', '/account', { key: readOnly.body.secret, body: { retention: { emails_days: 1 } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    expect((await harness.api('GET', '/account', { key: sender.body.secret })).status).toBe(403);
    // Nothing changed: the free plan's default.
    expect((await harness.api('GET', '/account', { key: account.key })).body.retention.emails_days).toBe(30);
  });

  it('expires emails, their objects and events, received emails, delivery logs and import reports; usage and suppressions remain', async () => {
    const account = await harness.newAccount();
    const patched = await harness.api('PATCH', '/account', {
      key: account.key,
      body: { retention: { emails_days: 1, received_emails_days: 1, webhook_deliveries_days: 1, imports_days: 1 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.retention).toEqual({ emails_days: 1, received_emails_days: 1, webhook_deliveries_days: 1, imports_days: 1 });
    expect((await harness.api('GET', '/account', { key: account.key })).body).toEqual(patched.body);

    // Sent: a body too large to stay in the item (2 KB) and an attachment, both in the bucket; its delivery logged.
    const deliveries = await webhooks.webhookInbox(account, ['email.delivered']);
    const hooks = await harness.api('GET', '/webhooks', { key: account.key });
    const webhookId = hooks.body.webhooks[0].id as string;
    const sent = await harness.api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${SANDBOX}`,
        to: account.email,
        subject: 'kept a day',
        html: `<p>${'x'.repeat(4000)}</p>`,
        attachments: [{ filename: 'a.txt', content: Buffer.from('attached').toString('base64') }],
      },
    });
    expect(sent.status).toBe(200);
    const emailId = sent.body.id as string;
    await harness.waitForStatus(account, emailId, 'delivered');
    await harness.waitFor(async () => ((await deliveries()).length ? true : undefined), 'the email.delivered webhook', 20_000);
    const objects = await store.bucketKeys('retention/1d/');
    expect(objects).toEqual(expect.arrayContaining([`retention/1d/bodies/${emailId}.json`, `retention/1d/attachments/${emailId}/0`]));
    const logged = await harness.waitFor(
      async () => {
        const page = await harness.api('GET', `/webhooks/${webhookId}/deliveries`, { key: account.key });
        return page.body.deliveries?.some((d: { status: string }) => d.status === 'succeeded') ? page.body.deliveries : undefined;
      },
      'a succeeded delivery in the log',
      20_000,
    );
    const deliveryId = logged[0].id as string;

    // Received at the MX.
    const domain = await inbound.receivingDomain(account);
    const info = await inbound.mxTransport().sendMail({
      from: 'someone@sender.example',
      to: domain.address('inbox'),
      subject: 'hello',
      text: 'a received message',
      attachments: [{ filename: 'r.txt', content: 'received attachment' }],
    });
    const [receivedId] = inbound.receivedIds(info.response);
    await inbound.waitForReceived(account, receivedId!);
    // Its objects under the account's class for received_emails_days (docs/retention.md), the raw message's copy among them.
    const receivedObjects = await store.bucketKeys(`retention/1d/inbound/${receivedId}/`);
    expect(receivedObjects.sort()).toEqual([
      `retention/1d/inbound/${receivedId}/attachments/att_1`,
      `retention/1d/inbound/${receivedId}/content.json`,
      `retention/1d/inbound/${receivedId}/message.eml`,
    ]);
    const sharedRaw = await store.bucketKeys('inbound/raw/');
    expect(sharedRaw).toHaveLength(1);
    // Read back from the record's keys.
    const receivedView = await harness.api('GET', `/received-emails/${receivedId}`, { key: account.key });
    expect(receivedView.body.received_email).toMatchObject({
      text: expect.stringContaining('a received message'),
      attachments: [{ id: 'att_1', filename: 'r.txt', content: Buffer.from('received attachment').toString('base64') }],
    });

    // Suppressions: one added by the API, the others imported (a report kept a day).
    const suppressed = `gone+${Date.now()}@example.com`;
    expect((await harness.api('POST', '/suppressions', { key: account.key, body: { email: suppressed } })).status).toBeLessThan(300);
    const providerKey = imports.providerKey('SG.');
    const fixture = imports.fixtureData('sendgrid', 0) as { bounces: unknown[] };
    await imports.seedProvider({ provider: 'sendgrid', api_key: providerKey, data: { bounces: fixture.bounces.slice(0, 3) } });
    const answers = await imports.importToEnd(account, { provider: 'sendgrid', api_key: providerKey, resources: ['suppressions'] });
    const migrationId = answers.at(-1)!.body.migration.id as string;
    expect((await harness.api('GET', `/migrations/${migrationId}`, { key: account.key })).status).toBe(200);
    const suppressionsBefore = (await harness.api('GET', '/suppressions?limit=100', { key: account.key })).body.suppressions;
    expect(suppressionsBefore.length).toBeGreaterThanOrEqual(2);
    const monthUsage = await usage.usage(account.id, 'PLAN', 'MONTH', usage.month());
    expect(monthUsage).toBeGreaterThan(0);

    // What the sweep must remove is in the table now (the filters below find it).
    const before = await store.tableItems();
    const ofRun = (items: Record<string, any>[]) => ({
      email: items.filter((item) => String(item.PK) === `EMAIL#${emailId}`).length,
      received: items.filter((item) => String(item.PK) === `RECEIVED#${receivedId}`).length,
      deliveries: items.filter((item) => item.type === 'webhook_delivery' && item.webhook_id === webhookId).length,
      migration: items.filter((item) => String(item.PK) === `MIGRATION#${account.id}#${migrationId}`).length,
    });
    const present = ofRun(before);
    expect(present).toEqual({ email: 1, received: 1, deliveries: 1, migration: expect.any(Number) });
    expect(present.migration).toBeGreaterThanOrEqual(2);
    // Each with its ttl: a day from its start.
    for (const item of before.filter((i) => [`EMAIL#${emailId}`, `RECEIVED#${receivedId}`].includes(String(i.PK))))
      expect(typeof item.ttl).toBe('number');

    // Three days on by the functions' clock: past the window (S3 counts to the next midnight after a day).
    expect((await harness.api('PUT', '/_local/clock', { body: { offset_ms: 3 * DAY_MS } })).status).toBe(200);

    // Before any sweep: expired records read as absent (DynamoDB's TTL is lazy).
    expect((await harness.api('GET', `/emails/${emailId}`, { key: account.key })).status).toBe(404);
    expect((await harness.api('GET', '/emails', { key: account.key })).body.emails.map((e: { id: string }) => e.id)).not.toContain(emailId);
    expect((await harness.api('GET', `/received-emails/${receivedId}`, { key: account.key })).status).toBe(404);
    expect((await harness.api('GET', '/received-emails', { key: account.key })).body.received_emails).toEqual([]);
    expect((await harness.api('GET', `/webhooks/${webhookId}/deliveries/${deliveryId}`, { key: account.key })).status).toBe(404);
    expect((await harness.api('GET', `/webhooks/${webhookId}/deliveries`, { key: account.key })).body.deliveries).toEqual([]);
    expect((await harness.api('GET', `/migrations/${migrationId}`, { key: account.key })).status).toBe(404);
    expect((await harness.api('GET', '/migrations', { key: account.key })).body.migrations).toEqual([]);

    // The sweeps, by the same clock: the items and objects are gone.
    const ttl = await harness.api('POST', '/_local/ttl/sweep');
    expect(ttl.status).toBe(200);
    const lifecycle = await harness.api('POST', '/_local/s3/lifecycle-sweep');
    expect(lifecycle.status).toBe(200);
    expect(lifecycle.body.expired).toEqual(
      expect.arrayContaining([...objects, ...receivedObjects].map((key) => expect.stringContaining(key))),
    );
    expect(await store.bucketKeys('retention/1d/')).toEqual([]);
    expect(await store.bucketKeys(`inbound/${receivedId}/`)).toEqual([]);

    expect(ofRun(await store.tableItems())).toEqual({ email: 0, received: 0, deliveries: 0, migration: 0 });
    expect(ttl.body.deleted[harness.stack().info.env.TABLE_NAME as string]).toBeGreaterThanOrEqual(3 + present.migration);

    // What outlives the records: the usage counters and every suppression.
    expect(await usage.usage(account.id, 'PLAN', 'MONTH', usage.month())).toBe(monthUsage);
    expect((await harness.api('GET', '/suppressions?limit=100', { key: account.key })).body.suppressions).toEqual(suppressionsBefore);
    const client = usage.documentClient();
    const stillSuppressed = await client.send(
      new QueryCommand({
        TableName: harness.stack().info.env.TABLE_NAME,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': `ACCOUNT#${account.id}#SUPPRESSIONS#0` },
      }),
    );
    client.destroy();
    expect((stillSuppressed.Items ?? []).map((item) => item.email)).toContain(suppressed);
    expect((stillSuppressed.Items ?? []).every((item) => item.ttl === undefined)).toBe(true);

    // The MX listener's shared raw message outlives every queue message that can name it, then goes by its rule.
    expect(await store.bucketKeys('inbound/raw/')).toEqual(sharedRaw);
    expect((await harness.api('PUT', '/_local/clock', { body: { offset_ms: 31 * DAY_MS } })).status).toBe(200);
    expect((await harness.api('POST', '/_local/s3/lifecycle-sweep')).status).toBe(200);
    expect(await store.bucketKeys('inbound/raw/')).toEqual([]);
  });
});
