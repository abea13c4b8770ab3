/**
 * Sending domains end to end: add, publish the returned records in a real DNS server (the local DNS
 * emulator), verify record by record through missing, wrong, duplicate-SPF and correct records,
 * then send from the domain (DKIM-signed with the domain's key).
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { LocalSesIdentity } from '#localstack/emulators/ses';
import { verifyDkim } from '../support/mailauth-dkim';
import { api, newAccount, sesMessagesFor, stack, waitFor, type TestAccount } from './harness/stack';
import { localResolver, publish, publishAll, uniqueDomain, unpublish, type PublicRecord } from './harness/dns';

const byPurpose = (records: PublicRecord[], purpose: string) => records.find((r) => r.purpose === purpose)!;

async function addDomain(account: TestAccount, name = uniqueDomain(), extra: object = {}) {
  const response = await api('POST', '/domains', { key: account.key, body: { name, ...extra } });
  expect(response.status).toBe(201);
  return response.body.domain as { id: string; name: string; status: string; records: PublicRecord[] };
}

/** The SES identity the service registered for a domain name (the local SES emulator, via the API port). */
async function sesIdentity(name: string): Promise<LocalSesIdentity | undefined> {
  const response = await api<{ identities: LocalSesIdentity[] }>('GET', '/_local/ses/identities');
  expect(response.status).toBe(200);
  return response.body.identities.find((identity) => identity.identity === name);
}

async function verify(account: TestAccount, id: string) {
  const response = await api('POST', `/domains/${id}`, { key: account.key, body: { action: 'verify' } });
  expect(response.status).toBe(200);
  return response.body.domain as { id: string; status: string; records: PublicRecord[]; verified_at: string | null };
}

describe('POST /domains', () => {
  it('returns the records to publish, each with its status', async () => {
    const account = await newAccount();
    const name = uniqueDomain();
    const domain = await addDomain(account, name);
    expect(domain).toMatchObject({
      name,
      status: 'pending',
      open_tracking: false,
      click_tracking: false,
      tls_mode: 'opportunistic',
      inbound_enabled: false,
      tenant: null,
    });
    const records = domain.records;
    expect(records.map((r) => [r.purpose, r.type, r.required])).toEqual([
      ['ownership', 'TXT', true],
      ['dkim', 'TXT', true],
      ['return_path', 'CNAME', true],
      ['spf', 'TXT', true],
      ['dmarc', 'TXT', false],
    ]);
    expect(byPurpose(records, 'ownership')).toMatchObject({
      name: `_service.${name}`,
      value: expect.stringMatching(/^service-verification=/),
    });
    const dkim = byPurpose(records, 'dkim');
    expect(dkim.name).toMatch(new RegExp(`^[a-z0-9-]+\\._domainkey\\.${name.replace(/\./g, '\\.')}$`));
    // A 2048-bit RSA public key (SPKI DER, base64) is ~392 characters.
    const key = /p=([A-Za-z0-9+/=]+)/.exec(dkim.value)![1]!;
    expect(Buffer.from(key, 'base64').length).toBeGreaterThanOrEqual(290);
    expect(byPurpose(records, 'return_path')).toMatchObject({
      name: `rp.${name}`,
      value: stack().info.env.RETURN_PATH_HOST ?? 'rp.mailservice.dev',
    });
    expect(byPurpose(records, 'spf')).toMatchObject({ name, value: 'v=spf1 include:spf.mailservice.dev ~all' });
    expect(byPurpose(records, 'dmarc').name).toBe(`_dmarc.${name}`);
    expect(records.every((r) => r.status === 'pending')).toBe(true);

    const fetched = await api('GET', `/domains/${domain.id}`, { key: account.key });
    expect(fetched.body.domain).toEqual(domain);
    expect(JSON.stringify(fetched.body)).not.toMatch(/PRIVATE KEY|private/i);
  });

  it('adds the inbound MX record for a receive-enabled domain', async () => {
    const account = await newAccount({ plan: 'pro' });
    const name = uniqueDomain();
    const domain = await addDomain(account, name, { inbound_enabled: true });
    expect(byPurpose(domain.records, 'inbound_mx')).toMatchObject({
      type: 'MX',
      name: `inbound.${name}`,
      value: 'inbound.mailservice.dev',
      priority: 10,
      required: false,
    });
  });

  it('validates the name and needs domains:write', async () => {
    const account = await newAccount();
    const bad = await api('POST', '/domains', { key: account.key, body: { name: 'not a domain' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields[0].field).toBe('name');
    const sender = await api('POST', '/api-keys', { key: account.key, body: { name: 's', scopes: ['emails:send'] } });
    const denied = await api('POST', '/domains', { key: sender.body.secret, body: { name: uniqueDomain() } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    const tenant = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), tenant: 'acme' } });
    expect(tenant.status).toBe(403);
    expect(tenant.body.error.code).toBe('tenants_not_enabled');
  });

  it('limits domains by plan with 403 plan_limit and an upgrade_url, even under concurrent requests', async () => {
    const account = await newAccount({ plan: 'free' });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body.error).toMatchObject({
      code: 'plan_limit',
      details: { limit: 1, resource: 'domains', plan: 'free' },
      upgrade_url: expect.stringMatching(/^https?:\/\//),
    });
    const list = await api('GET', '/domains', { key: account.key });
    expect(list.body.domains).toHaveLength(1);
  });

  it('gives a domain one owner: 409 with claim instructions for another account, also when racing', async () => {
    const first = await newAccount();
    const second = await newAccount();
    const name = uniqueDomain();
    const [a, b] = await Promise.all([
      api('POST', '/domains', { key: first.key, body: { name } }),
      api('POST', '/domains', { key: second.key, body: { name } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error.details).toMatchObject({
      domain: name,
      claim: { type: 'TXT', name: `_service-claim.${name}`, value: expect.stringMatching(/^service-claim=/) },
    });
    expect(loser.body.error.hint).toContain('support');
    const again = await api('POST', '/domains', { key: (a.status === 201 ? first : second).key, body: { name } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('already added to this account');
  });
});

describe('verification against DNS', () => {
  let account: TestAccount;
  let domain: { id: string; name: string; records: PublicRecord[] };
  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    domain = await addDomain(account);
  });

  it('reports every required record missing before anything is published', async () => {
    const checked = await verify(account, domain.id);
    expect(checked.status).toBe('pending');
    for (const purpose of ['ownership', 'dkim', 'return_path', 'spf']) {
      const record = byPurpose(checked.records, purpose);
      expect(record.status).toBe('not_found');
      expect(record.message).toContain(record.name);
    }
  });

  it('says what is wrong with wrong records: found vs expected', async () => {
    const name = domain.name;
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    await publish(`_service.${name}`, 'TXT', ['service-verification=someone-else']);
    await publish(byPurpose(domain.records, 'dkim').name, 'TXT', [`v=DKIM1; k=rsa; p=${otherKey}`]);
    await publish(`rp.${name}`, 'CNAME', ['elsewhere.example.net']);
    await publish(name, 'TXT', ['v=spf1 include:_spf.google.com ~all']);
    const checked = await verify(account, domain.id);
    expect(checked.status).toBe('pending');
    expect(byPurpose(checked.records, 'ownership')).toMatchObject({ status: 'invalid', found: ['service-verification=someone-else'] });
    expect(byPurpose(checked.records, 'dkim')).toMatchObject({ status: 'invalid', message: expect.stringContaining('not this domain') });
    expect(byPurpose(checked.records, 'return_path')).toMatchObject({
      status: 'invalid',
      found: ['elsewhere.example.net'],
      message: expect.stringContaining('rp.mailservice.dev'),
    });
    expect(byPurpose(checked.records, 'spf')).toMatchObject({
      status: 'invalid',
      message: expect.stringContaining('"v=spf1 include:spf.mailservice.dev include:_spf.google.com ~all"'),
    });
  });

  it('fails two SPF records and says so', async () => {
    await publish(domain.name, 'TXT', [
      'v=spf1 include:spf.mailservice.dev ~all',
      'v=spf1 include:_spf.google.com ~all',
      'google-site-verification=abc',
    ]);
    const checked = await verify(account, domain.id);
    const spf = byPurpose(checked.records, 'spf');
    expect(spf.status).toBe('invalid');
    expect(spf.message).toMatch(/Found 2 SPF records/);
    expect(spf.found).toHaveLength(2);
  });

  it('verifies once every record is right, signing a probe with the domain key', async () => {
    await unpublish(domain.name, 'TXT');
    await publishAll(domain.records);
    // Another, unrelated TXT at the apex does not disturb SPF.
    await publish(domain.name, 'TXT', ['v=spf1 include:spf.mailservice.dev ~all', 'google-site-verification=abc']);
    expect(await sesIdentity(domain.name)).toBeUndefined();
    const checked = await verify(account, domain.id);
    expect(checked.status).toBe('verified');
    expect(checked.verified_at).not.toBeNull();
    for (const record of checked.records) expect(record.status).toBe('verified');

    // SES now knows the domain: our DKIM key under our selector (BYODKIM), MAIL FROM rp.<domain>.
    const dkim = byPurpose(domain.records, 'dkim');
    expect(await sesIdentity(domain.name)).toMatchObject({
      identity_type: 'DOMAIN',
      dkim_origin: 'EXTERNAL',
      dkim_selector: dkim.name.split('._domainkey.')[0],
      dkim_public_key: /p=([A-Za-z0-9+/=]+)/.exec(dkim.value)![1],
      dkim_key_bits: 2048,
      mail_from_domain: `rp.${domain.name}`,
      behavior_on_mx_failure: 'USE_DEFAULT_VALUE',
    });
    // Verifying again is idempotent: still one identity, same key.
    expect((await verify(account, domain.id)).status).toBe('verified');
    expect((await sesIdentity(domain.name))?.dkim_selector).toBe(dkim.name.split('._domainkey.')[0]);
  });

  it('keeps a domain unverified with 502 upstream_error when SES cannot register it', async () => {
    // The emulator refuses identities named *.refused-by-ses.test (LOCAL_SES_REFUSE_IDENTITIES, global setup).
    const owner = await newAccount({ plan: 'pro' });
    const refused = await addDomain(owner, `d${randomUUID().slice(0, 8)}.refused-by-ses.test`);
    await publishAll(refused.records);
    const response = await api('POST', `/domains/${refused.id}`, { key: owner.key, body: { action: 'verify' } });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'upstream_error', details: { domain_id: refused.id, status: 'pending' } });
    expect(response.body.error.message).toMatch(/DNS records .* are correct, but the mail provider could not register the domain/);
    expect(response.body.error.message).not.toMatch(/LimitExceeded|emulator/);
    expect(await sesIdentity(refused.name)).toBeUndefined();

    // The check is recorded, the domain stays pending, and sends from it are still refused.
    const stored = (await api('GET', `/domains/${refused.id}`, { key: owner.key })).body.domain;
    expect(stored).toMatchObject({ status: 'pending', verified_at: null });
    expect(stored.last_checked_at).not.toBeNull();
    for (const record of stored.records as PublicRecord[]) expect(record.status).toBe('verified');
    const send = await api('POST', '/emails', {
      key: owner.key,
      body: { from: `a@${refused.name}`, to: owner.email, subject: 's', text: 't' },
    });
    expect(send.status).toBe(403);
    expect(send.body.error.code).toBe('domain_not_verified');
  });

  it('marks a verified domain failed when a required record disappears', async () => {
    const owner = await newAccount({ plan: 'pro' });
    const other = await addDomain(owner);
    await publishAll(other.records);
    expect((await verify(owner, other.id)).status).toBe('verified');
    await unpublish(`rp.${other.name}`);
    const checked = await verify(owner, other.id);
    expect(checked.status).toBe('failed');
    expect(byPurpose(checked.records, 'return_path').status).toBe('not_found');
  });
});

describe('sending from a verified domain', () => {
  let account: TestAccount;
  let domain: { id: string; name: string; records: PublicRecord[] };
  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    domain = await addDomain(account);
    await publishAll(domain.records);
    expect((await verify(account, domain.id)).status).toBe('verified');
  });

  it('refuses an unverified domain and one that was never added', async () => {
    const pending = await addDomain(account);
    const notVerified = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${pending.name}`, to: account.email, subject: 's', text: 't' },
    });
    expect(notVerified.status).toBe(403);
    expect(notVerified.body.error).toMatchObject({ code: 'domain_not_verified', details: { domain_id: pending.id, status: 'pending' } });
    const unknown = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'a@never-added.example', to: account.email, subject: 's', text: 't' },
    });
    expect(unknown.status).toBe(403);
    expect(unknown.body.error.code).toBe('domain_not_verified');
  });

  it('only reaches the account email until a payment method is on file, then anyone', async () => {
    const locked = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain.name}`, to: 'customer@example.org', subject: 's', text: 't' },
    });
    expect(locked.status).toBe(403);
    expect(locked.body.error).toMatchObject({
      code: 'recipient_not_allowed',
      details: { reason: 'production_not_unlocked', refused_recipients: ['customer@example.org'] },
    });

    const own = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain.name}`, to: account.email, subject: 'own', text: 't' },
    });
    expect(own.status).toBe(200);

    await stack().services.accounts.update(account.id, { payment_method: true }, new Date().toISOString());
    const open = await api('POST', '/emails', {
      key: account.key,
      body: { from: `Hello <hello@${domain.name}>`, to: 'customer@example.org', subject: 'Signed', text: 'hi' },
    });
    expect(open.status).toBe(200);
    await waitFor(
      async () => (await api('GET', `/emails/${open.body.id}`, { key: account.key })).body.email.status === 'delivered',
      'delivered',
    );

    // The message left DKIM-signed with the domain's key, and the signature verifies against DNS.
    const [message] = await sesMessagesFor(open.body.id);
    const unfolded = message!.raw.replace(/\r\n[ \t]+/g, ' ');
    expect(unfolded).toMatch(new RegExp(`^DKIM-Signature: .*d=${domain.name.replace(/\./g, '\\.')};`, 'm'));
    const resolver = localResolver();
    const results = await verifyDkim(Buffer.from(message!.raw, 'utf8'), (name) => resolver.resolveTxt(name));
    expect(results.find((r) => r.domain === domain.name)?.status).toBe('pass');
  });

  it("enforces a key's allowed_domains with 403 domain_not_allowed", async () => {
    const limited = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'other only', scopes: ['emails:send'], allowed_domains: ['other.example'] },
    });
    const refused = await api('POST', '/emails', {
      key: limited.body.secret,
      body: { from: `a@${domain.name}`, to: account.email, subject: 's', text: 't' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'domain_not_allowed',
      details: { domain: domain.name, allowed_domains: ['other.example'] },
    });
    const allowed = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'this one', scopes: ['emails:send'], allowed_domains: [domain.name] },
    });
    const ok = await api('POST', '/emails', {
      key: allowed.body.secret,
      body: { from: `a@${domain.name}`, to: account.email, subject: 's', text: 't' },
    });
    expect(ok.status).toBe(200);
  });

  it('stops sending from a deleted domain', async () => {
    const owner = await newAccount({ plan: 'pro', paymentMethod: true });
    const gone = await addDomain(owner);
    await publishAll(gone.records);
    await verify(owner, gone.id);
    expect(await sesIdentity(gone.name)).toMatchObject({ mail_from_domain: `rp.${gone.name}` });
    const deleted = await api('DELETE', `/domains/${gone.id}`, { key: owner.key });
    expect(deleted.body).toEqual({ ok: true });
    // The SES identity goes with it.
    expect(await sesIdentity(gone.name)).toBeUndefined();
    const refused = await api('POST', '/emails', {
      key: owner.key,
      body: { from: `a@${gone.name}`, to: 'x@example.org', subject: 's', text: 't' },
    });
    expect(refused.status).toBe(403);
    expect((await api('GET', `/domains/${gone.id}`, { key: owner.key })).status).toBe(404);
    // The name is free again.
    expect((await api('POST', '/domains', { key: owner.key, body: { name: gone.name } })).status).toBe(201);
  });
});

describe('domain settings and listing', () => {
  it('changes delivery settings, lists with pagination, and hides other accounts', async () => {
    const account = await newAccount({ plan: 'pro' });
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await addDomain(account));
    const patched = await api('PATCH', `/domains/${created[0]!.id}`, {
      key: account.key,
      body: { open_tracking: true, tls_mode: 'enforced' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.domain).toMatchObject({ open_tracking: true, click_tracking: false, tls_mode: 'enforced' });
    const invalid = await api('PATCH', `/domains/${created[0]!.id}`, { key: account.key, body: { tls_mode: 'sometimes' } });
    expect(invalid.status).toBe(400);
    const empty = await api('PATCH', `/domains/${created[0]!.id}`, { key: account.key, body: {} });
    expect(empty.status).toBe(400);

    const page1 = await api('GET', '/domains?limit=2', { key: account.key });
    expect(page1.body.domains.map((d: { id: string }) => d.id)).toEqual([created[2]!.id, created[1]!.id]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await api('GET', `/domains?limit=2&cursor=${page1.body.next_cursor}`, { key: account.key });
    expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(page2.body.domains.map((d: { id: string }) => d.id)).toEqual([created[0]!.id]);

    const other = await newAccount();
    expect((await api('GET', `/domains/${created[0]!.id}`, { key: other.key })).status).toBe(404);
    expect((await api('DELETE', `/domains/${created[0]!.id}`, { key: other.key })).status).toBe(404);
    expect((await api('PATCH', `/domains/${created[0]!.id}`, { key: other.key, body: { open_tracking: false } })).status).toBe(404);
  });

  it('refuses apply without a DNS host and unknown actions (400; apply itself: domain-apply.test.ts)', async () => {
    const account = await newAccount();
    const domain = await addDomain(account);
    const response = await api('POST', `/domains/${domain.id}`, { key: account.key, body: { action: 'apply' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([expect.objectContaining({ field: 'provider' })]);
    const bad = await api('POST', `/domains/${domain.id}`, { key: account.key, body: { action: 'explode' } });
    expect(bad.status).toBe(400);
  });
});
