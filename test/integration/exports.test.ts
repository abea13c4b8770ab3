/**
 * Account exports (docs/exports.md) on the local cloud: an account seeded with some of each kind (emails
 * sent and delivered, a tenant, domains, a webhook, suppressions on the account's and the tenant's lists,
 * a template, an automation, a received email) is exported through the API, followed to `completed`, and
 * every file downloaded by its signed URL: each seeded object is there exactly once and equal to what the
 * API answers for it, and the suppressions' CSV holds the same rows. An export worked in small stretches
 * (the use case on this process, one part of two records per request, against the same table and bucket)
 * is continued by later requests and finished by the API's GET, every record once. An email past its
 * retention (its ttl passed, not yet deleted) is not exported. A key without `full` gets 403; another
 * account's export is 404.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { apiKeySecretHash, authenticateKeyHash } from '#shared/usecases/access/authenticate';
import { getExport, startExport } from '#shared/usecases/exports/exports';
import { exportDepsOf } from '#functions/api/account/export-routes';
import { verifiedDomain } from './harness/domains';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { api, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox } from './harness/webhook-inbox';

jest.setTimeout(180_000);

const SANDBOX = 'sandbox.mailservice.dev';

/** POST /exports, then GET until completed (each GET continues it). */
async function exportToEnd(account: TestAccount) {
  const started = await api('POST', '/exports', { key: account.key });
  expect(started.status).toBe(201);
  let current = started.body.export;
  for (let i = 0; current.status === 'running'; i++) {
    expect(i).toBeLessThan(30);
    const next = await api('GET', `/exports/${current.id}`, { key: account.key });
    expect(next.status).toBe(200);
    current = next.body.export;
  }
  return current;
}

/** Every file of a completed export downloaded by its link: the NDJSON records per kind (parts in order) and the CSV text. */
async function download(exported: any): Promise<{ records: Record<string, any[]>; csv: string; texts: string[] }> {
  const records: Record<string, any[]> = {};
  let csv = '';
  const texts: string[] = [];
  const files = [...exported.files].sort((a: any, b: any) => a.part - b.part);
  for (const file of files) {
    const response = await fetch(file.download_url);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBe(file.size);
    texts.push(text);
    if (file.format === 'csv') csv += text;
    else {
      records[file.kind] ??= [];
      records[file.kind]!.push(
        ...text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      );
    }
  }
  return { records, csv, texts };
}

const once = (items: any[], id: string, field = 'id') => {
  const found = items.filter((item) => item[field] === id);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('account export', () => {
  it('round-trips every kind: each seeded object once, as the API answers it; the suppressions as CSV too', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const domain = await verifiedDomain(owner);
    const from = `hello@${domain.name}`;
    expect((await api('POST', '/tenants', { key: owner.key, body: { external_id: 'acme' } })).status).toBeLessThan(300);
    await webhookInbox(owner, ['email.delivered']);
    const webhooks = (await api('GET', '/webhooks', { key: owner.key })).body.webhooks;
    expect(webhooks).toHaveLength(1);

    const sent = [];
    for (const subject of ['one', 'two']) {
      const response = await api('POST', '/emails', {
        key: owner.key,
        body: { from, to: 'success@simulator.amazonses.com', subject, text: 'hi' },
      });
      expect(response.status).toBe(200);
      sent.push(response.body.id as string);
    }
    for (const id of sent) await waitForStatus(owner, id, 'delivered');

    const gone = `gone-${randomUUID().slice(0, 8)}@example.com`;
    expect(
      (await api('POST', '/suppressions', { key: owner.key, body: { emails: [gone, `also-${randomUUID().slice(0, 4)}@example.com`] } }))
        .status,
    ).toBeLessThan(300);
    expect(
      (await api('POST', '/suppressions', { key: owner.key, body: { email: 'tenant-gone@example.com', tenant: 'acme' } })).status,
    ).toBeLessThan(300);
    const template = await api('POST', '/templates', {
      key: owner.key,
      body: { name: 'Welcome', alias: 'welcome', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>' },
    });
    expect(template.status).toBeLessThan(300);
    const automation = await api('POST', '/automations', {
      key: owner.key,
      body: { name: 'onboarding', trigger: { event: 'user.created' }, steps: [{ key: 'wait', type: 'delay', duration: '1 day' }] },
    });
    expect(automation.status).toBeLessThan(300);
    const inbox = await receivingDomain(owner);
    const info = await mxTransport().sendMail({
      from: 'someone@example.org',
      to: inbox.address('support'),
      subject: 'a question',
      text: 'hello',
    });
    const [receivedId] = receivedIds(info.response);
    await waitForReceived(owner, receivedId!);

    const exported = await exportToEnd(owner);
    expect(exported.status).toBe('completed');
    expect(Date.parse(exported.links_expire_at) - Date.now()).toBeGreaterThan(50 * 60_000);
    const { records, csv, texts } = await download(exported);

    // Emails and their events.
    for (const id of sent) {
      expect(once(records.emails!, id)).toEqual((await api('GET', `/emails/${id}`, { key: owner.key })).body.email);
      expect(records.events!.filter((event) => event.email_id === id).map((event) => event.type)).toEqual([
        'accepted',
        'sent',
        'delivered',
      ]);
    }
    expect(records.emails).toHaveLength(sent.length);
    // Domains, the webhook (never its secret), the template, the automation.
    for (const id of [domain.id, inbox.id])
      expect(once(records.domains!, id)).toEqual((await api('GET', `/domains/${id}`, { key: owner.key })).body.domain);
    expect(records.domains).toHaveLength(2);
    expect(once(records.webhooks!, webhooks[0].id)).toEqual(
      (await api('GET', `/webhooks/${webhooks[0].id}`, { key: owner.key })).body.webhook,
    );
    expect(texts.join('')).not.toMatch(/whsec_|"secret"/);
    expect(once(records.templates!, template.body.template.id)).toEqual(
      (await api('GET', '/templates/welcome', { key: owner.key })).body.template,
    );
    expect(once(records.automations!, automation.body.automation.id)).toEqual(
      (await api('GET', `/automations/${automation.body.automation.id}`, { key: owner.key })).body.automation,
    );
    // The received email, as GET /received-emails lists it.
    const listedReceived = (await api('GET', '/received-emails', { key: owner.key })).body.received_emails;
    expect(records.received_emails).toEqual(listedReceived);
    once(records.received_emails!, receivedId!);
    // Suppressions: the account's list and the tenant's, as GET /suppressions answers them.
    const accountList = (await api('GET', '/suppressions', { key: owner.key })).body.suppressions;
    const tenantList = (await api('GET', '/suppressions?tenant=acme', { key: owner.key })).body.suppressions;
    expect(records.suppressions).toEqual([...accountList, ...tenantList]);
    expect(accountList).toHaveLength(2);
    expect(tenantList).toHaveLength(1);
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('email,reason,scope,tenant,created_at,id');
    expect(lines).toHaveLength(4);
    for (const s of records.suppressions!) {
      const field = (value: string) => (/[",]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
      expect(lines).toContain([field(s.email), s.reason, s.scope, s.tenant ?? '', s.created_at, s.id].join(','));
    }
    expect(exported.kinds.suppressions).toEqual({ records: 3, done: true });

    // The list shows it; another account cannot see it.
    expect((await api('GET', '/exports', { key: owner.key })).body.exports.map((item: any) => item.id)).toEqual([exported.id]);
    const stranger = await newAccount();
    expect((await api('GET', `/exports/${exported.id}`, { key: stranger.key })).status).toBe(404);
    expect((await api('GET', '/exports', { key: stranger.key })).body.exports).toEqual([]);
  });

  it('continues an export of more than one request across requests, and finishes it without duplicates', async () => {
    const owner = await newAccount();
    const addresses = Array.from({ length: 5 }, (_, i) => `many-${i}-${randomUUID().slice(0, 6)}@example.com`);
    expect((await api('POST', '/suppressions', { key: owner.key, body: { emails: addresses } })).status).toBeLessThan(300);
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await api('POST', '/emails', {
        key: owner.key,
        body: { from: `a@${SANDBOX}`, to: owner.email, subject: `s${i}`, text: 't' },
      });
      expect(response.status).toBe(200);
      sent.push(response.body.id);
    }
    await waitFor(
      async () => ((await api('GET', '/emails', { key: owner.key })).body.emails?.length === 3 ? true : undefined),
      'the listing of the three emails',
    );

    // Requests of one stretch each (a part of two records), as a small time budget would cut them.
    const services = stack().services;
    const deps = {
      ...exportDepsOf(services),
      exportSettings: { budgetMs: 20_000, maxStretchesPerRequest: 1, partRecords: 2, leaseMs: 55_000 },
    };
    const principal = await authenticateKeyHash(services, apiKeySecretHash(owner.key));
    const first = await startExport(deps, principal);
    expect(first.status).toBe('running');
    expect(first.kinds.emails).toEqual({ records: 2, done: false });
    const second = await getExport(deps, principal, first.id);
    expect(second.kinds.emails).toEqual({ records: 3, done: true });
    const third = await getExport(deps, principal, first.id);
    expect(third.status).toBe('running');
    // POST meanwhile: one running export per account.
    const again = await api('POST', '/exports', { key: owner.key });
    expect(again.status).toBe(409);
    expect(again.body.error.details.export_id).toBe(first.id);

    // The API's GET finishes it.
    const done = await api('GET', `/exports/${first.id}`, { key: owner.key });
    expect(done.status).toBe(200);
    expect(done.body.export.status).toBe('completed');
    const { records, csv } = await download(done.body.export);
    expect(records.emails!.map((email) => email.id).sort()).toEqual([...sent].sort());
    expect(records.suppressions!.map((s) => s.email).sort()).toEqual([...addresses].sort());
    expect(done.body.export.files.filter((file: any) => file.kind === 'emails').map((file: any) => file.part)).toEqual([1, 2]);
    expect(csv.split('\r\n').filter((line) => line.startsWith('email,'))).toHaveLength(1);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(addresses.length + 1);
  });

  it('starts one export when two POSTs race (the running slot is a conditional write), and another once it completed', async () => {
    const racer = await newAccount();
    const answers = await Promise.all([api('POST', '/exports', { key: racer.key }), api('POST', '/exports', { key: racer.key })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const started = answers.find((answer) => answer.status === 201)!.body.export;
    expect(answers.find((answer) => answer.status === 409)!.body.error.details.export_id).toBe(started.id);
    let current = started;
    for (let i = 0; current.status === 'running'; i++) {
      expect(i).toBeLessThan(30);
      current = (await api('GET', `/exports/${started.id}`, { key: racer.key })).body.export;
    }
    expect(current.status).toBe('completed');
    const next = await api('POST', '/exports', { key: racer.key });
    expect(next.status).toBe(201);
    expect(next.body.export.id).not.toBe(started.id);
  });

  it('leaves out what the retention expired (a record past its ttl), as the API does', async () => {
    const owner = await newAccount();
    const sent: string[] = [];
    for (const subject of ['kept', 'expired']) {
      const response = await api('POST', '/emails', {
        key: owner.key,
        body: { from: `a@${SANDBOX}`, to: owner.email, subject, text: 't' },
      });
      expect(response.status).toBe(200);
      sent.push(response.body.id);
    }
    await waitFor(
      async () => ((await api('GET', '/emails', { key: owner.key })).body.emails?.length === 2 ? true : undefined),
      'the listing of the two emails',
    );
    // The second email's retention ran out a moment ago (DynamoDB's TTL deletes lazily: until then, reads leave it out).
    const table = stack().services.config.tableName;
    const client = createDynamoClient(stack().services.config);
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { PK: `EMAIL#${sent[1]}`, SK: 'EMAIL' },
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    expect((await api('GET', `/emails/${sent[1]}`, { key: owner.key })).status).toBe(404);

    const exported = await exportToEnd(owner);
    const { records } = await download(exported);
    expect(records.emails!.map((email) => email.id)).toEqual([sent[0]]);
    expect(new Set(records.events!.map((event) => event.email_id))).toEqual(new Set([sent[0]]));
  });

  it('needs the full scope and an account-wide key', async () => {
    const owner = await newAccount();
    const readOnly = await api('POST', '/api-keys', { key: owner.key, body: { name: 'reader', scopes: ['account:read'] } });
    expect(readOnly.status).toBeLessThan(300);
    for (const [method, path] of [
      ['POST', '/exports'],
      ['GET', '/exports'],
      ['GET', '/exports/exp_01JDZZZZZZZZZZZZZZZZZZZZZZ'],
    ] as const) {
      const response = await api(method, path, { key: readOnly.body.secret });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('insufficient_scope');
    }
    expect((await api('GET', '/exports/exp_01JDZZZZZZZZZZZZZZZZZZZZZZ', { key: owner.key })).status).toBe(404);
  });
});
