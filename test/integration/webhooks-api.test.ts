/**
 * Webhook endpoints over the API: CRUD with the secret shown once, validation (HTTPS, event names,
 * strict PATCH), tenant filters, pagination, isolation between accounts, scopes, the SSRF policy at
 * creation (hosts resolved through the local DNS emulator), the per-account cap; and the delivery log
 * (the store methods the router and worker use) with its listing and replay routes.
 */
import { randomUUID } from 'node:crypto';
import { newId } from '#shared/domain/ids';
import { deliveryIdFor, type DeliveryAttempt, type WebhookDelivery } from '#shared/domain/webhooks/delivery';
import { MAX_WEBHOOKS_PER_ACCOUNT, webhookSecretContext } from '#shared/domain/webhooks/endpoint';
import { EVENT_TYPES } from '#shared/domain/webhooks/event-types';
import type { Services } from '#shared/services';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';

const ZONE = 'webhooks-api.test';
const PUBLIC_IP = '93.184.216.34';

async function publishAddress(name: string, type: 'A' | 'AAAA', values: string[]): Promise<void> {
  const response = await api('PUT', '/_local/dns/records', { body: { name, type, values } });
  if (response.status !== 200) throw new Error(`publishing ${type} ${name} failed: ${response.text}`);
}

/** A fresh host name published in the DNS emulator with these A records. */
async function hostResolvingTo(...addresses: string[]): Promise<string> {
  const host = `h${randomUUID().slice(0, 8)}.${ZONE}`;
  await publishAddress(host, 'A', addresses);
  return host;
}

let publicHost: string;
beforeAll(async () => {
  publicHost = await hostResolvingTo(PUBLIC_IP);
});

const hookUrl = (path = 'hook') => `https://${publicHost}/${path}`;

async function createWebhook(account: TestAccount, body: Record<string, unknown> = {}) {
  const response = await api('POST', '/webhooks', { key: account.key, body: { url: hookUrl(), ...body } });
  expect(response.status).toBe(200);
  return response.body as { webhook: Record<string, any> & { id: string }; secret: string };
}

async function keyWith(account: TestAccount, scopes: string[]): Promise<string> {
  const response = await api('POST', '/api-keys', { key: account.key, body: { name: scopes.join(' '), scopes } });
  expect(response.status).toBe(201);
  return response.body.secret;
}

describe('webhook endpoints', () => {
  it('creates, reads, lists, changes and deletes; the secret is shown once and stored sealed', async () => {
    const account = await newAccount();
    const { webhook, secret } = await createWebhook(account);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(webhook).toEqual({
      object: 'webhook',
      id: expect.stringMatching(/^wh_[0-9A-Z]{26}$/),
      url: hookUrl(),
      events: [...EVENT_TYPES],
      enabled: true,
      delivery: 'push',
      secret_rotated_at: null,
      previous_secret_expires_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: webhook.created_at,
    });
    expect(webhook).not.toHaveProperty('tenants');

    const fetched = await api('GET', `/webhooks/${webhook.id}`, { key: account.key });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ webhook });
    const listed = await api('GET', '/webhooks', { key: account.key });
    expect(listed.body).toEqual({ webhooks: [webhook], has_more: false, next_cursor: null });
    for (const text of [fetched.text, listed.text]) {
      expect(text).not.toContain(secret);
      // No secret, nor its sealed form (the object names when it was rotated, never the secret).
      expect(text).not.toMatch(/whsec_|"secret"|secret_sealed|v1:local/);
    }

    // Stored encrypted, bound to the endpoint: it opens with the endpoint's context only.
    const stored = await stack().services.webhooks.get(webhook.id);
    expect(stored!.sealedSecret).toMatch(/^v1:/);
    expect(stored!.sealedSecret).not.toContain(secret.slice(6));
    await expect(stack().services.secretBox.open(stored!.sealedSecret, webhookSecretContext(webhook.id))).resolves.toBe(secret);
    await expect(stack().services.secretBox.open(stored!.sealedSecret, webhookSecretContext('wh_other'))).rejects.toThrow();

    const patched = await api('PATCH', `/webhooks/${webhook.id}`, {
      key: account.key,
      body: { url: hookUrl('v2'), events: ['email.bounced', 'email.delivered', 'email.bounced'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      object: 'webhook',
      id: webhook.id,
      url: hookUrl('v2'),
      events: ['email.bounced', 'email.delivered'],
      enabled: true,
      created_at: webhook.created_at,
    });
    expect(patched.body.updated_at >= webhook.updated_at).toBe(true);
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: account.key })).body.webhook).toEqual(patched.body);
    // The secret is unchanged by a PATCH.
    expect((await stack().services.webhooks.get(webhook.id))!.sealedSecret).toBe(stored!.sealedSecret);

    const deleted = await api('DELETE', `/webhooks/${webhook.id}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: account.key })).status).toBe(404);
    expect((await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { enabled: false } })).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${webhook.id}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks).toEqual([]);
    expect(await stack().services.webhooks.get(webhook.id)).toBeNull();
  });

  it('toggles enabled', async () => {
    const account = await newAccount();
    const { webhook } = await createWebhook(account);
    const off = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: webhook.id, enabled: false, url: webhook.url, events: webhook.events });
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: account.key })).body.webhook.enabled).toBe(false);
    expect((await stack().services.webhooks.get(webhook.id))!.endpoint.enabled).toBe(false);
    const on = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { enabled: true } });
    expect(on.body.enabled).toBe(true);
    expect((await stack().services.webhooks.get(webhook.id))!.endpoint.enabled).toBe(true);
  });

  it('accepts only HTTPS URLs without credentials', async () => {
    const account = await newAccount();
    for (const url of [`http://${publicHost}/hook`, 'ftp://example.com/x', 'not a url', '', `https://user:pass@${publicHost}/hook`]) {
      const refused = await api('POST', '/webhooks', { key: account.key, body: { url } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('validation_error');
      expect(refused.body.error.details.fields[0].field).toBe('url');
    }
    const http = await api('POST', '/webhooks', { key: account.key, body: { url: `http://${publicHost}/hook` } });
    expect(http.body.error.details.fields[0].message).toMatch(/HTTPS/);
    const missing = await api('POST', '/webhooks', { key: account.key, body: { events: ['email.sent'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields[0].field).toBe('url');
    const { webhook } = await createWebhook(account);
    const patchHttp = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { url: `http://${publicHost}/hook` } });
    expect(patchHttp.status).toBe(400);
    expect(patchHttp.body.error.details.fields[0].field).toBe('url');
    expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks).toHaveLength(1);
  });

  it('refuses unknown event names listing the valid ones; events default to all and are deduplicated', async () => {
    const account = await newAccount();
    const unknown = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: hookUrl(), events: ['email.delivered', 'email.exploded'] },
    });
    expect(unknown.status).toBe(400);
    const field = unknown.body.error.details.fields[0];
    expect(field.field).toBe('events.1');
    expect(field.message).toContain('email.exploded');
    for (const type of EVENT_TYPES) expect(field.message).toContain(type);

    expect((await api('POST', '/webhooks', { key: account.key, body: { url: hookUrl(), events: [] } })).status).toBe(400);
    expect((await api('POST', '/webhooks', { key: account.key, body: { url: hookUrl(), events: 'email.sent' } })).status).toBe(400);

    const all = await createWebhook(account);
    expect(all.webhook.events).toEqual([...EVENT_TYPES]);
    const some = await createWebhook(account, { events: ['email.sent', 'email.sent', 'email.failed'] });
    expect(some.webhook.events).toEqual(['email.sent', 'email.failed']);

    const patchUnknown = await api('PATCH', `/webhooks/${some.webhook.id}`, { key: account.key, body: { events: ['nope'] } });
    expect(patchUnknown.status).toBe(400);
    expect(patchUnknown.body.error.details.fields[0]).toMatchObject({
      field: 'events.0',
      message: expect.stringContaining('email.delivered'),
    });
  });

  it('validates PATCH strictly: at least one known field', async () => {
    const account = await newAccount();
    const { webhook } = await createWebhook(account);
    const empty = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: {} });
    expect(empty.status).toBe(400);
    const extra = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { enabled: false, secret: 'x' } });
    expect(extra.status).toBe(400);
    const wrongType = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { enabled: 'yes' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details.fields[0].field).toBe('enabled');
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: account.key })).body.webhook).toEqual(webhook);
  });

  it('filters by tenants: 403 tenants_not_enabled without tenants, 404 for unknown tenants, [] and null remove the filter', async () => {
    const account = await newAccount();
    const named = await api('POST', '/webhooks', { key: account.key, body: { url: hookUrl(), tenants: ['acme'] } });
    expect(named.status).toBe(403);
    expect(named.body.error.code).toBe('tenants_not_enabled');
    const emptyFilter = await createWebhook(account, { tenants: [] });
    expect(emptyFilter.webhook).not.toHaveProperty('tenants');
    const { webhook } = emptyFilter;
    const patchNamed = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { tenants: ['acme'] } });
    expect(patchNamed.status).toBe(403);
    expect(patchNamed.body.error.code).toBe('tenants_not_enabled');

    const withTenants = await newAccount({ plan: 'scale', tenants: true });
    const unknownTenant = await api('POST', '/webhooks', { key: withTenants.key, body: { url: hookUrl(), tenants: ['acme'] } });
    expect(unknownTenant.status).toBe(404);
    expect(unknownTenant.body.error.code).toBe('not_found');

    // A filtered endpoint (tenants cannot be created yet: the filter is written through the store) shows
    // `tenants`; PATCH with null or [] removes the filter.
    const { services } = stack();
    for (const removal of [null, []]) {
      await services.webhooks.update(account.id, webhook.id, { tenants: ['acme', 'globex'] }, new Date().toISOString());
      const filtered = await api('GET', `/webhooks/${webhook.id}`, { key: account.key });
      expect(filtered.body.webhook.tenants).toEqual(['acme', 'globex']);
      expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks[0].tenants).toEqual(['acme', 'globex']);
      const removed = await api('PATCH', `/webhooks/${webhook.id}`, { key: account.key, body: { tenants: removal } });
      expect(removed.status).toBe(200);
      expect(removed.body).not.toHaveProperty('tenants');
      expect((await services.webhooks.get(webhook.id))!.endpoint.tenants).toBeNull();
    }
  });

  it('lists newest first with exact pagination; cursors are bound to the account', async () => {
    const account = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createWebhook(account)).webhook.id);
    const newestFirst = [...ids].reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: boolean[] = [];
    do {
      const path: string = `/webhooks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await api('GET', path, { key: account.key });
      expect(page.status).toBe(200);
      seen.push(...page.body.webhooks.map((w: { id: string }) => w.id));
      pages.push(page.body.has_more);
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    expect(pages).toEqual([true, true, false]);

    const first = await api('GET', '/webhooks?limit=2', { key: account.key });
    const other = await newAccount();
    const stolen = await api('GET', `/webhooks?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: other.key });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.details.fields[0].field).toBe('cursor');
    expect((await api('GET', '/webhooks?cursor=garbage', { key: account.key })).status).toBe(400);
    expect((await api('GET', '/webhooks?limit=0', { key: account.key })).status).toBe(400);
    expect((await api('GET', '/webhooks?limit=101', { key: account.key })).status).toBe(400);
  });

  it("hides other accounts' endpoints (404 everywhere)", async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const { webhook } = await createWebhook(owner);
    const someDelivery = deliveryIdFor(newId('evt'));
    for (const [method, path, body] of [
      ['GET', `/webhooks/${webhook.id}`, undefined],
      ['PATCH', `/webhooks/${webhook.id}`, { enabled: false }],
      ['DELETE', `/webhooks/${webhook.id}`, undefined],
      ['GET', `/webhooks/${webhook.id}/deliveries`, undefined],
      ['GET', `/webhooks/${webhook.id}/deliveries/${someDelivery}`, undefined],
      ['POST', `/webhooks/${webhook.id}/deliveries/${someDelivery}/replay`, undefined],
    ] as const) {
      const response = await api(method, path, { key: stranger.key, body });
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await api('GET', '/webhooks', { key: stranger.key })).body.webhooks).toEqual([]);
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: owner.key })).body.webhook).toEqual(webhook);
    expect((await api('GET', '/webhooks/wh_nonexistent', { key: owner.key })).status).toBe(404);
  });

  it('needs webhooks:write to change and webhooks:write or account:read to read', async () => {
    const account = await newAccount();
    const { webhook } = await createWebhook(account);
    const sender = await keyWith(account, ['emails:send']);
    for (const [method, path, body] of [
      ['POST', '/webhooks', { url: hookUrl() }],
      ['GET', '/webhooks', undefined],
      ['GET', `/webhooks/${webhook.id}`, undefined],
      ['PATCH', `/webhooks/${webhook.id}`, { enabled: false }],
      ['DELETE', `/webhooks/${webhook.id}`, undefined],
      ['GET', `/webhooks/${webhook.id}/deliveries`, undefined],
    ] as const) {
      const denied = await api(method, path, { key: sender, body });
      expect([method, path, denied.status]).toEqual([method, path, 403]);
      expect(denied.body.error.code).toBe('insufficient_scope');
    }
    const reader = await keyWith(account, ['account:read']);
    expect((await api('GET', '/webhooks', { key: reader })).status).toBe(200);
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: reader })).status).toBe(200);
    expect((await api('GET', `/webhooks/${webhook.id}/deliveries`, { key: reader })).status).toBe(200);
    const readerWrite = await api('POST', '/webhooks', { key: reader, body: { url: hookUrl() } });
    expect(readerWrite.status).toBe(403);
    expect(readerWrite.body.error.details.required_scopes).toEqual(['full', 'mail:admin', 'webhooks:write']);

    const writer = await keyWith(account, ['webhooks:write']);
    const created = await api('POST', '/webhooks', { key: writer, body: { url: hookUrl() } });
    expect(created.status).toBe(200);
    expect((await api('PATCH', `/webhooks/${created.body.webhook.id}`, { key: writer, body: { enabled: false } })).status).toBe(200);
    expect((await api('GET', '/webhooks', { key: writer })).body.webhooks).toHaveLength(2);
    expect((await api('DELETE', `/webhooks/${created.body.webhook.id}`, { key: writer })).status).toBe(200);
    expect((await api('GET', '/webhooks')).status).toBe(401);
  });
});

describe('SSRF policy at creation', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  async function refused(url: string, method: 'POST' | 'PATCH' = 'POST', id?: string) {
    const response =
      method === 'POST'
        ? await api('POST', '/webhooks', { key: account.key, body: { url } })
        : await api('PATCH', `/webhooks/${id}`, { key: account.key, body: { url } });
    expect([url, response.status]).toEqual([url, 400]);
    expect(response.body.error.code).toBe('validation_error');
    expect(response.body.error.details.fields[0].field).toBe('url');
    return response.body.error as { message: string; details: { fields: { field: string; message: string }[]; reason: string } };
  }

  it('refuses a host that resolves to a private address, saying so without echoing the address', async () => {
    const host = await hostResolvingTo('10.0.0.5');
    const error = await refused(`https://${host}/hook`);
    expect(error.details.fields[0]!.message).not.toContain('10.0.0.5');
    expect(error.details.fields[0]!.message).toContain('private');
    expect(error.details.reason).toBe('forbidden_address');
  });

  it('checks every address of the host, IPv6 too', async () => {
    const mixed = await hostResolvingTo(PUBLIC_IP, '192.168.1.20');
    expect((await refused(`https://${mixed}/hook`)).message).toContain('private');
    const v6 = `v6-${randomUUID().slice(0, 8)}.${ZONE}`;
    await publishAddress(v6, 'AAAA', ['fd00::1']);
    expect((await refused(`https://${v6}/hook`)).message).toMatch(/unique-local/);
    const metadata = await hostResolvingTo('169.254.169.254');
    expect((await refused(`https://${metadata}/latest/meta-data/`)).message).toContain('metadata');
  });

  it('refuses IP-literal metadata and private URLs, internal names and hosts that do not resolve', async () => {
    expect((await refused('https://169.254.169.254/')).message).toContain('metadata');
    await refused('https://10.1.2.3/hook');
    await refused('https://[fd00:ec2::254]/');
    await refused('https://service.internal/hook');
    const missing = await refused(`https://missing-${randomUUID().slice(0, 8)}.${ZONE}/hook`);
    expect(missing.details.reason).toBe('unresolvable_host');
  });

  it('refuses a PATCH to a forbidden URL and keeps the old one', async () => {
    const { webhook } = await createWebhook(account);
    await refused('https://169.254.169.254/', 'PATCH', webhook.id);
    await refused(`https://${await hostResolvingTo('172.16.0.9')}/x`, 'PATCH', webhook.id);
    expect((await api('GET', `/webhooks/${webhook.id}`, { key: account.key })).body.webhook.url).toBe(webhook.url);
  });

  it('accepts loopback on the local cloud (WEBHOOK_ALLOW_LOOPBACK)', async () => {
    const loopback = await api('POST', '/webhooks', { key: account.key, body: { url: 'https://127.0.0.1:8443/hook' } });
    expect(loopback.status).toBe(200);
    expect(loopback.body.webhook.url).toBe('https://127.0.0.1:8443/hook');
    const localhost = await api('POST', '/webhooks', { key: account.key, body: { url: 'https://localhost:8443/hook' } });
    expect(localhost.status).toBe(200);
    // Loopback only: private ranges stay refused.
    await refused('https://192.168.0.1:8443/hook');
  });
});

describe('endpoint cap', () => {
  it(`allows ${MAX_WEBHOOKS_PER_ACCOUNT} endpoints per account, also under concurrent requests`, async () => {
    const account = await newAccount();
    for (let i = 0; i < MAX_WEBHOOKS_PER_ACCOUNT - 2; i++) await createWebhook(account);
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => api('POST', '/webhooks', { key: account.key, body: { url: hookUrl() } })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 403, 403]);
    const over = racing.find((r) => r.status === 403)!;
    expect(over.body.error).toMatchObject({ code: 'limit_exceeded', details: { limit: MAX_WEBHOOKS_PER_ACCOUNT, resource: 'webhooks' } });
    let all: string[] = [];
    let page = await api('GET', '/webhooks?limit=100', { key: account.key });
    all = page.body.webhooks.map((w: { id: string }) => w.id);
    expect(all).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT);
    // Deleting one frees a slot.
    expect((await api('DELETE', `/webhooks/${all[0]}`, { key: account.key })).status).toBe(200);
    await createWebhook(account);
    expect((await api('POST', '/webhooks', { key: account.key, body: { url: hookUrl() } })).status).toBe(403);
    page = await api('GET', '/webhooks?limit=100', { key: account.key });
    expect(page.body.webhooks).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT);
    // Other accounts are unaffected.
    expect((await api('POST', '/webhooks', { key: (await newAccount()).key, body: { url: hookUrl() } })).status).toBe(200);
  });
});

describe('delivery log', () => {
  let services: Services;
  beforeAll(() => {
    services = stack().services;
  });

  function delivery(webhookId: string, accountId: string, at: number, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
    const eventId = newId('evt', at);
    const iso = new Date(at).toISOString();
    // Written straight to the store, never queued: its next attempt an hour ahead, so the reconciler does not
    // take it for a stuck delivery and hand it to the delivery worker while a test reads its log.
    const nextAttempt = new Date(at + 3_600_000).toISOString();
    return {
      id: deliveryIdFor(eventId),
      webhook_id: webhookId,
      account_id: accountId,
      event_id: eventId,
      event_type: 'email.delivered',
      payload: JSON.stringify({
        type: 'email.delivered',
        created_at: iso,
        data: { email_id: 'msg_TEST', status: 'delivered', tenant: null },
      }),
      status: 'pending',
      attempts: [],
      next_attempt_at: nextAttempt,
      created_at: iso,
      updated_at: iso,
      ...overrides,
    };
  }

  function attempt(n: number, statusCode: number | null, at = new Date()): DeliveryAttempt {
    return {
      attempt: n,
      at: at.toISOString(),
      status_code: statusCode,
      duration_ms: 12,
      error: statusCode === null ? 'ECONNREFUSED' : null,
      response_excerpt: statusCode === null ? null : 'nope',
    };
  }

  it('stores deliveries once per (endpoint, event), logs attempts while pending, cancels and resets for replay', async () => {
    const account = await newAccount();
    const { webhook } = await createWebhook(account);
    const first = delivery(webhook.id, account.id, Date.now());
    expect(await services.webhookDeliveries.create(first)).toBe(true);
    expect(await services.webhookDeliveries.create({ ...first, payload: '{"other":true}' })).toBe(false);
    expect(await services.webhookDeliveries.get(webhook.id, first.id)).toEqual(first);
    expect(await services.webhookDeliveries.get(webhook.id, 'whd_bogus')).toBeNull();
    expect(await services.webhookDeliveries.get('wh_other', first.id)).toBeNull();

    const retryAt = new Date(Date.now() + 5000).toISOString();
    expect(
      await services.webhookDeliveries.recordAttempt(webhook.id, first.id, attempt(1, 500), { status: 'pending', nextAttemptAt: retryAt }),
    ).toBe(true);
    expect(
      await services.webhookDeliveries.recordAttempt(webhook.id, first.id, attempt(2, null), { status: 'failed', nextAttemptAt: null }),
    ).toBe(true);
    // Finished: no more attempts, no cancel.
    expect(
      await services.webhookDeliveries.recordAttempt(webhook.id, first.id, attempt(3, 200), { status: 'succeeded', nextAttemptAt: null }),
    ).toBe(false);
    expect(await services.webhookDeliveries.cancel(webhook.id, first.id, new Date().toISOString())).toBe(false);
    const failed = (await services.webhookDeliveries.get(webhook.id, first.id))!;
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(failed.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, null],
      [2, null, 'ECONNREFUSED'],
    ]);
    expect(failed.updated_at).toBe(failed.attempts[1]!.at);

    const now = new Date().toISOString();
    const reset = await services.webhookDeliveries.resetForReplay(webhook.id, first.id, now, 2);
    expect(reset).toMatchObject({ status: 'pending', next_attempt_at: now, updated_at: now, retry_base: 2 });
    expect(reset!.attempts).toHaveLength(2);
    expect(await services.webhookDeliveries.resetForReplay(webhook.id, first.id, now, 2)).toBeNull();
    expect(await services.webhookDeliveries.cancel(webhook.id, first.id, now)).toBe(true);
    expect((await services.webhookDeliveries.get(webhook.id, first.id))!.status).toBe('cancelled');
    expect((await services.webhookDeliveries.resetForReplay(webhook.id, first.id, now, 2))!.status).toBe('pending');

    const ok = delivery(webhook.id, account.id, Date.now());
    await services.webhookDeliveries.create(ok);
    expect(
      await services.webhookDeliveries.recordAttempt(webhook.id, ok.id, attempt(1, 204), { status: 'succeeded', nextAttemptAt: null }),
    ).toBe(true);
    expect(await services.webhookDeliveries.resetForReplay(webhook.id, ok.id, now, 1)).toBeNull();
    expect(
      await services.webhookDeliveries.recordAttempt(webhook.id, deliveryIdFor(newId('evt')), attempt(1, 204), {
        status: 'succeeded',
        nextAttemptAt: null,
      }),
    ).toBe(false);
  });

  it('lists deliveries newest first through the API, with attempts and the payload', async () => {
    const account = await newAccount();
    const { webhook } = await createWebhook(account);
    const base = Date.now() - 60_000;
    const created: WebhookDelivery[] = [];
    for (let i = 0; i < 3; i++) {
      const d = delivery(webhook.id, account.id, base + i * 1000, { event_type: i === 2 ? 'email.bounced' : 'email.delivered' });
      await services.webhookDeliveries.create(d);
      created.push(d);
    }
    await services.webhookDeliveries.recordAttempt(webhook.id, created[2]!.id, attempt(1, 503), { status: 'failed', nextAttemptAt: null });

    const firstPage = await api('GET', `/webhooks/${webhook.id}/deliveries?limit=2`, { key: account.key });
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.has_more).toBe(true);
    expect(firstPage.body.deliveries.map((d: { id: string }) => d.id)).toEqual([created[2]!.id, created[1]!.id]);
    const newest = firstPage.body.deliveries[0];
    expect(newest).toEqual({
      object: 'webhook_delivery',
      id: created[2]!.id,
      webhook_id: webhook.id,
      event_id: created[2]!.event_id,
      event_type: 'email.bounced',
      status: 'failed',
      attempts: [{ attempt: 1, at: expect.any(String), status_code: 503, duration_ms: 12, error: null, response_excerpt: 'nope' }],
      next_attempt_at: null,
      payload: JSON.parse(created[2]!.payload),
      created_at: created[2]!.created_at,
      updated_at: expect.any(String),
    });
    const secondPage = await api(
      'GET',
      `/webhooks/${webhook.id}/deliveries?limit=2&cursor=${encodeURIComponent(firstPage.body.next_cursor)}`,
      { key: account.key },
    );
    expect(secondPage.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(secondPage.body.deliveries.map((d: { id: string }) => d.id)).toEqual([created[0]!.id]);

    const one = await api('GET', `/webhooks/${webhook.id}/deliveries/${created[0]!.id}`, { key: account.key });
    expect(one.status).toBe(200);
    expect(one.body.delivery).toMatchObject({ id: created[0]!.id, status: 'pending', attempts: [] });

    // A cursor of another endpoint's log is refused.
    const other = await createWebhook(account);
    const crossed = await api('GET', `/webhooks/${other.webhook.id}/deliveries?cursor=${encodeURIComponent(firstPage.body.next_cursor)}`, {
      key: account.key,
    });
    expect(crossed.status).toBe(400);
    expect((await api('GET', `/webhooks/${other.webhook.id}/deliveries`, { key: account.key })).body).toEqual({
      deliveries: [],
      has_more: false,
      next_cursor: null,
    });
  });

  it('replays only failed or cancelled deliveries of an enabled endpoint, and queues the next attempt', async () => {
    const account = await newAccount();
    // Loopback, closed port: the delivery worker's attempt fails fast (ECONNREFUSED) and is logged.
    const created = await api('POST', '/webhooks', { key: account.key, body: { url: 'https://127.0.0.1:9/hook' } });
    expect(created.status).toBe(200);
    const webhookId = created.body.webhook.id as string;
    const replay = (deliveryId: string, key = account.key) =>
      api('POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/replay`, { key });

    const unknown = await replay(deliveryIdFor(newId('evt')));
    expect(unknown.status).toBe(404);
    expect((await replay('whd_not-an-id')).status).toBe(404);

    const pending = delivery(webhookId, account.id, Date.now());
    await services.webhookDeliveries.create(pending);
    const busy = await replay(pending.id);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: 'conflict', details: { status: 'pending' } });
    expect(busy.body.error.message).toContain('pending');

    const succeeded = delivery(webhookId, account.id, Date.now());
    await services.webhookDeliveries.create(succeeded);
    await services.webhookDeliveries.recordAttempt(webhookId, succeeded.id, attempt(1, 200), { status: 'succeeded', nextAttemptAt: null });
    const done = await replay(succeeded.id);
    expect(done.status).toBe(409);
    expect(done.body.error.details.status).toBe('succeeded');

    const failed = delivery(webhookId, account.id, Date.now());
    await services.webhookDeliveries.create(failed);
    await services.webhookDeliveries.recordAttempt(webhookId, failed.id, attempt(1, 500), { status: 'failed', nextAttemptAt: null });

    // Disabled endpoint: 409 saying so; nothing changes.
    await api('PATCH', `/webhooks/${webhookId}`, { key: account.key, body: { enabled: false } });
    const disabled = await replay(failed.id);
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.message).toContain('disabled');
    expect((await services.webhookDeliveries.get(webhookId, failed.id))!.status).toBe('failed');
    await api('PATCH', `/webhooks/${webhookId}`, { key: account.key, body: { enabled: true } });

    // Scope: replay is a write.
    const reader = await keyWith(account, ['account:read']);
    expect((await replay(failed.id, reader)).status).toBe(403);

    const accepted = await replay(failed.id);
    expect(accepted.status).toBe(202);
    expect(accepted.body.delivery).toMatchObject({
      object: 'webhook_delivery',
      id: failed.id,
      status: 'pending',
      attempts: [expect.objectContaining({ attempt: 1, status_code: 500 })],
    });
    // The queue got {webhook_id, delivery_id, attempt: 2}: the delivery worker consumes it and logs attempt 2.
    const attempted = await waitFor(
      async () => {
        const current = await services.webhookDeliveries.get(webhookId, failed.id);
        return current && current.attempts.length >= 2 ? current : null;
      },
      'the replayed attempt',
      20_000,
    );
    expect(attempted.attempts[1]).toMatchObject({ attempt: 2, status_code: null });
    expect(attempted.attempts[1]!.error).toBeTruthy();

    // Deleting the endpoint ends it all: its deliveries are 404 through the API.
    expect((await api('DELETE', `/webhooks/${webhookId}`, { key: account.key })).status).toBe(200);
    expect((await replay(failed.id)).status).toBe(404);
  });

  it('a cancelled delivery can be replayed', async () => {
    const account = await newAccount();
    const { webhook } = await createWebhook(account, { url: 'https://127.0.0.1:9/hook' });
    const cancelled = delivery(webhook.id, account.id, Date.now());
    await services.webhookDeliveries.create(cancelled);
    expect(await services.webhookDeliveries.cancel(webhook.id, cancelled.id, new Date().toISOString())).toBe(true);
    const accepted = await api('POST', `/webhooks/${webhook.id}/deliveries/${cancelled.id}/replay`, { key: account.key });
    expect(accepted.status).toBe(202);
    expect(accepted.body.delivery).toMatchObject({ status: 'pending', attempts: [] });
  });
});
