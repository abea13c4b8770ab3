/**
 * Erasure by address (docs/erasure.md) on the running stack: an address is seeded everywhere (sent to it with
 * an Idempotency-Key, a large body and an attachment; in Cc of another email; in Reply-To of a batch's item; bounced by the SES simulator so
 * suppressed; opted out of newsletters and suppressed on a tenant's list; a tenant's email to it; an email
 * received from it at the MX; an automation run about it; webhook deliveries of events about all of those), then erased. A scan of the
 * table and of the bucket (the test may scan; the product never does) finds no item and no object holding
 * the address (raw bytes, case-insensitive); the report's counts are what was seeded; a send to it is still
 * refused; erasing it again finds nothing; a key without `full` is refused.
 */
import { randomUUID } from 'node:crypto';
import { verifiedDomain } from './harness/domains';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { itemsNaming, objectsNaming } from './harness/scan';
import { useOwnStack } from './harness/own-stack';
import { api, newAccount, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox } from './harness/webhook-inbox';

jest.setTimeout(180_000);

async function settled<T>(read: () => Promise<T[]>, what: string): Promise<T[]> {
  let last = -1;
  return waitFor(
    async () => {
      const now = await read();
      const stable = now.length === last;
      last = now.length;
      if (!stable) await new Promise((resolve) => setTimeout(resolve, 1500));
      return stable ? now : undefined;
    },
    what,
    40_000,
  );
}

async function send(account: TestAccount, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api('POST', '/emails', { key: account.key, body, headers });
}

describe('erasure by address', () => {
  // A stack of its own: its whole-store scans read only this file's items and objects (on the shared stack
  // each scan read every other file's: 22,000 items and 7-8 s a scan late in the suite).
  useOwnStack('mailservice-erasure-');
  it('removes every trace of a seeded address from the table and the bucket, keeps it suppressed by hash, and reports it', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const domain = await verifiedDomain(owner);
    const from = `hello@${domain.name}`;
    // Mixed case on purpose: everything is found whatever case it was written in.
    const address = `Bounce+Erase${randomUUID().slice(0, 8)}@simulator.amazonses.com`;
    const deliveries = await webhookInbox(owner, ['email.sent', 'email.delivered', 'email.bounced', 'email.suppressed', 'email.received']);
    const tenant = await api('POST', '/tenants', { key: owner.key, body: { external_id: 'acme' } });
    expect(tenant.status).toBeLessThan(300);

    // Sent to it (a body and an attachment in the bucket, an idempotency record); the simulator bounces it.
    const bounced = await send(
      owner,
      {
        from,
        to: address,
        subject: 'for you',
        html: `<p>${'x'.repeat(4000)} ${address}</p>`,
        attachments: [{ filename: 'a.txt', content: Buffer.from(`for ${address}`).toString('base64') }],
      },
      { 'idempotency-key': `erase-${randomUUID()}` },
    );
    expect(bounced.status).toBe(200);
    // In Cc of another email (sent before the bounce, or refused after it: an email naming it either way).
    const cc = await send(owner, { from, to: 'success@simulator.amazonses.com', cc: [address.toLowerCase()], subject: 'cc', text: 'hi' });
    const ccId = (cc.status === 200 ? cc.body.id : cc.body.error.details.email_id) as string;
    // In Reply-To of one item of a batch (whose emails are written together, their references first).
    const batch = await api('POST', '/emails/batch', {
      key: owner.key,
      body: {
        emails: [
          { from, to: 'success@simulator.amazonses.com', subject: 'batch, not naming it', text: 'hi' },
          { from, to: 'success@simulator.amazonses.com', reply_to: address, subject: 'batch, naming it', text: 'hi' },
        ],
      },
    });
    expect(batch.body.data.map((item: { status: string }) => item.status)).toEqual(['sent', 'sent']);
    const [batchOther, batchNaming] = batch.body.data.map((item: { id: string }) => item.id) as [string, string];
    await waitForStatus(owner, bounced.body.id, 'bounced');
    await waitFor(
      async () =>
        (await api('GET', `/suppressions?email=${encodeURIComponent(address)}`, { key: owner.key })).body.suppressions?.length
          ? true
          : undefined,
      'the bounce suppression',
    );

    // Unsubscribed from newsletters, suppressed on the tenant's list, and a tenant's email to it (refused, kept).
    expect((await api('POST', '/suppressions', { key: owner.key, body: { email: address, category: 'newsletter' } })).status).toBeLessThan(
      300,
    );
    expect((await api('POST', '/suppressions', { key: owner.key, body: { email: address, tenant: 'acme' } })).status).toBeLessThan(300);
    const tenantSend = await send(owner, { from, to: address, subject: 'from acme', text: 'hi', tenant: 'acme' });
    expect(tenantSend.status).toBe(422);
    const tenantEmailId = tenantSend.body.error.details.email_id as string;

    // Received from it at the MX.
    const inbox = await receivingDomain(owner);
    const info = await mxTransport().sendMail({
      from: address,
      to: inbox.address('support'),
      subject: 'a question',
      text: `from ${address}`,
    });
    const [receivedId] = receivedIds(info.response);
    await waitForReceived(owner, receivedId!);

    // An automation run about it (its event named it), waiting for another event.
    const automation = await api('POST', '/automations', {
      key: owner.key,
      body: {
        name: 'erase me',
        status: 'active',
        trigger: { event: 'user.created' },
        steps: [{ key: 'verified', type: 'wait_for_event', event: 'user.verified', timeout: '3 days' }],
      },
    });
    expect(automation.status).toBeLessThan(300);
    const event = await api('POST', '/events', {
      key: owner.key,
      body: { name: 'user.created', user_id: '42', email: address, data: { plan: 'pro' } },
    });
    expect(event.status).toBeLessThan(300);
    await waitFor(
      async () =>
        (await api('GET', `/automations/${automation.body.automation.id}/runs`, { key: owner.key })).body.runs?.length ? true : undefined,
      'the run',
    );

    // Everything settled: the webhook deliveries naming it stop growing.
    await settled(
      async () => (await deliveries()).filter((hook) => JSON.stringify(hook).toLowerCase().includes(address.toLowerCase())),
      'the webhooks to settle',
    );
    const before = await itemsNaming(address);
    const count = (type: string) => before.filter((item) => item.type === type).length;
    expect(count('email')).toBe(4);
    expect(before.map((item) => item.PK)).toEqual(
      expect.arrayContaining([
        `EMAIL#${bounced.body.id}`,
        `EMAIL#${ccId}`,
        `EMAIL#${tenantEmailId}`,
        `EMAIL#${batchNaming}`,
        `RECEIVED#${receivedId}`,
      ]),
    );
    expect(count('webhook_delivery')).toBeGreaterThanOrEqual(3);
    const objectsBefore = await objectsNaming(address);
    expect(objectsBefore.length).toBeGreaterThanOrEqual(2);

    // A key without `full` may not erase.
    const sender = await api('POST', '/api-keys', { key: owner.key, body: { name: 'send', scopes: ['emails:send'] } });
    const refused = await api('POST', '/privacy/erasures', { key: sender.body.secret, body: { email: address } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');

    const started = await api('POST', '/privacy/erasures', { key: owner.key, body: { email: address } });
    expect(started.status).toBe(201);
    let erasure = started.body.erasure;
    while (erasure.status === 'running') erasure = (await api('GET', `/privacy/erasures/${erasure.id}`, { key: owner.key })).body.erasure;
    expect(erasure).toMatchObject({
      id: expect.stringMatching(/^era_/),
      object: 'erasure',
      status: 'completed',
      suppression_kept_as_hash: true,
      completed_at: expect.any(String),
    });
    expect(erasure.removed).toMatchObject({
      suppressions: 2,
      category_opt_outs: 1,
      emails: 4,
      received_emails: 1,
      webhook_deliveries: count('webhook_delivery'),
      idempotency_records: 1,
      automation_runs: 1,
    });
    expect(erasure.removed.objects).toBeGreaterThanOrEqual(objectsBefore.length);
    const report = await api('GET', `/privacy/erasures/${erasure.id}`, { key: owner.key });
    expect(report.status).toBe(200);
    expect(report.body.erasure).toEqual(erasure);

    // No trace left: a scan of the table and of the bucket.
    expect(await itemsNaming(address)).toEqual([]);
    expect(await objectsNaming(address)).toEqual([]);
    expect((await api('GET', `/emails/${bounced.body.id}`, { key: owner.key })).status).toBe(404);
    expect((await api('GET', `/emails/${batchNaming}`, { key: owner.key })).status).toBe(404);
    expect((await api('GET', `/emails/${batchOther}`, { key: owner.key })).status).toBe(200);
    expect((await api('GET', `/received-emails/${receivedId}`, { key: owner.key })).status).toBe(404);
    expect((await api('GET', `/suppressions?email=${encodeURIComponent(address)}`, { key: owner.key })).body.suppressions).toEqual([]);

    // Erasing it again finds nothing left.
    const again = await api('POST', '/privacy/erasures', { key: owner.key, body: { email: address.toLowerCase() } });
    expect(again.status).toBe(201);
    expect(again.body.erasure).toMatchObject({ status: 'completed', suppression_kept_as_hash: false });
    expect(Object.values(again.body.erasure.removed)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(again.body.erasure.id).not.toBe(erasure.id);

    // Still not mailed: on the account's list and the tenant's, by hash.
    for (const body of [
      { from, to: address, subject: 'again', text: 'hi' },
      { from, to: [address.toUpperCase()], subject: 'again', text: 'hi', tenant: 'acme' },
    ]) {
      const later = await send(owner, body);
      expect(later.status).toBe(422);
      expect(later.body.error.details.suppressed).toHaveLength(1);
    }

    // Unknown erasures are 404.
    expect((await api('GET', '/privacy/erasures/era_01JD8X4Z6Q2W3E4R5T6Y7V8W9X', { key: owner.key })).status).toBe(404);
  });

  it('refuses a body without a valid address (400) and another account cannot read an erasure (404)', async () => {
    const [one, other] = await Promise.all([newAccount(), newAccount()]);
    const bad = await api('POST', '/privacy/erasures', { key: one.key, body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    const started = await api('POST', '/privacy/erasures', {
      key: one.key,
      body: { email: `nobody+${randomUUID().slice(0, 6)}@example.org` },
    });
    expect(started.status).toBe(201);
    expect(started.body.erasure.removed.emails).toBe(0);
    expect((await api('GET', `/privacy/erasures/${started.body.erasure.id}`, { key: other.key })).status).toBe(404);
  });
});
