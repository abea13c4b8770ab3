/**
 * DNS apply end to end on the local cloud: `POST /domains/{id} {action: "apply"}` writes the records
 * through the Route 53 emulator (spoken to by the real AWS SDK) or the fake Cloudflare API, both views
 * over the DNS emulator the service's resolvers read; then the domain verifies. An existing SPF record
 * gets our include (one SPF record), unrelated records stay, a second apply changes nothing, and
 * refused credentials, missing zones and stored credentials behave as docs/domains.md says.
 */
import { randomUUID } from 'node:crypto';
import { CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { CLOUDFLARE_LOCAL_TOKEN } from '#localstack/emulators/cloudflare';
import { ROUTE53_LOCAL_ACCESS_KEY_ID } from '#localstack/emulators/route53';
import { localResolver, publish } from './harness/dns';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

interface ApplyRecord {
  purpose: string;
  type: string;
  name: string;
  value: string;
  action: 'created' | 'updated' | 'unchanged' | 'failed';
  message: string;
  previous?: string;
}

const env = () => stack().info.env;
const spfInclude = () => env().SPF_INCLUDE ?? 'spf.mailservice.dev';

let route53: Route53Client;
beforeAll(() => {
  route53 = new Route53Client({
    region: 'us-east-1',
    endpoint: env().AWS_ENDPOINT_URL_ROUTE_53,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(() => route53.destroy());

/** A name under a parent of its own, so zones made for one test never hold another test's domain. */
const uniqueParent = () => `p${randomUUID().slice(0, 8)}.apply-test.test`;

async function hostedZone(name: string): Promise<string> {
  const created = await route53.send(new CreateHostedZoneCommand({ Name: name, CallerReference: randomUUID() }));
  return created.HostedZone!.Id!;
}

async function cloudflareZone(name: string): Promise<string> {
  const response = await fetch(`${env().CLOUDFLARE_API_URL}/zones`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CLOUDFLARE_LOCAL_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, account: { id: 'local' } }),
  });
  const body = (await response.json()) as { success: boolean; result: { id: string } };
  expect(body.success).toBe(true);
  return body.result.id;
}

async function addDomain(account: TestAccount, name: string) {
  const response = await api('POST', '/domains', { key: account.key, body: { name } });
  expect(response.status).toBe(201);
  return response.body.domain as { id: string; name: string; records: { purpose: string; value: string }[] };
}

const apply = (account: TestAccount, id: string, body: Record<string, unknown>) =>
  api('POST', `/domains/${id}`, { key: account.key, body: { action: 'apply', ...body } });

async function txt(name: string): Promise<string[]> {
  try {
    return (await localResolver().resolveTxt(name)).map((chunks) => chunks.join('')).sort();
  } catch {
    return [];
  }
}

const actions = (records: ApplyRecord[]) => Object.fromEntries(records.map((record) => [record.purpose, record.action]));

describe('apply through Route 53', () => {
  it('writes every record into the hosted zone found by name, merges SPF into the existing record, leaves other records, verifies; again: unchanged', async () => {
    const account = await newAccount({ plan: 'pro' });
    const name = uniqueParent();
    await hostedZone(name);
    // What the zone already has: an SPF record of another sender, a site verification, an unrelated host.
    await publish(name, 'TXT', ['v=spf1 include:_spf.google.com ~all', 'google-site-verification=abc123']);
    await publish(`www.${name}`, 'TXT', ['unrelated']);
    const domain = await addDomain(account, name);

    const response = await apply(account, domain.id, { provider: 'route53' });
    expect(response.status).toBe(200);
    expect(response.body.apply).toMatchObject({ provider: 'route53', zone: { name }, credentials: 'service', settled: true });
    const records = response.body.apply.records as ApplyRecord[];
    expect(actions(records)).toEqual({ ownership: 'created', dkim: 'created', return_path: 'created', spf: 'updated', dmarc: 'created' });
    const spf = records.find((record) => record.purpose === 'spf')!;
    expect(spf.value).toBe(`v=spf1 include:_spf.google.com include:${spfInclude()} ~all`);
    expect(spf.previous).toContain('v=spf1 include:_spf.google.com ~all');
    expect(response.body.domain.status).toBe('verified');
    expect(response.body.domain.records.every((record: { status: string }) => record.status === 'verified')).toBe(true);

    // Exactly one SPF record, the other apex value and the unrelated host untouched.
    const apex = await txt(name);
    expect(apex.filter((value) => value.startsWith('v=spf1'))).toEqual([spf.value]);
    expect(apex).toContain('google-site-verification=abc123');
    expect(await txt(`www.${name}`)).toEqual(['unrelated']);
    const dkim = domain.records.find((record) => record.purpose === 'dkim')!;
    expect(await txt(records.find((record) => record.purpose === 'dkim')!.name)).toEqual([dkim.value]);

    const again = await apply(account, domain.id, { provider: 'route53' });
    expect(again.status).toBe(200);
    expect(Object.values(actions(again.body.apply.records)).every((action) => action === 'unchanged')).toBe(true);
    expect(again.body.apply.settled).toBeNull();
    expect(again.body.domain.status).toBe('verified');
  });

  it('uses the longest zone that holds the name, and one-time credentials; refused credentials are 400 dns_auth_failed, never echoed', async () => {
    const account = await newAccount({ plan: 'pro' });
    const parent = uniqueParent();
    await hostedZone(parent);
    await hostedZone(`mail.${parent}`);
    const domain = await addDomain(account, `mail.${parent}`);
    const secret = `secret-${randomUUID()}`;

    const refused = await apply(account, domain.id, {
      provider: 'route53',
      credentials: { access_key_id: 'AKIAUNKNOWNKEY0000000', secret_access_key: secret },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'validation_error', details: { reason: 'dns_auth_failed', provider: 'route53' } });
    expect(refused.text).not.toContain(secret);
    expect(refused.text).not.toContain('AKIAUNKNOWNKEY0000000');

    const response = await apply(account, domain.id, {
      provider: 'route53',
      credentials: { access_key_id: ROUTE53_LOCAL_ACCESS_KEY_ID, secret_access_key: secret },
    });
    expect(response.status).toBe(200);
    expect(response.body.apply).toMatchObject({ zone: { name: `mail.${parent}` }, credentials: 'request' });
    expect(response.body.domain.status).toBe('verified');
    expect(response.text).not.toContain(secret);
  });

  it('stored AWS credentials: listed by a hint, used by apply without credentials instead of the service role', async () => {
    const account = await newAccount({ plan: 'pro' });
    const name = uniqueParent();
    await hostedZone(name);
    const domain = await addDomain(account, name);
    const secret = `secret-${randomUUID()}`;

    const stored = await api('PUT', '/dns-providers/route53', {
      key: account.key,
      body: { credentials: { access_key_id: ROUTE53_LOCAL_ACCESS_KEY_ID, secret_access_key: secret } },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.dns_provider).toMatchObject({
      provider: 'route53',
      hint: `${ROUTE53_LOCAL_ACCESS_KEY_ID.slice(0, 4)}…${ROUTE53_LOCAL_ACCESS_KEY_ID.slice(-4)}`,
    });
    expect(stored.text).not.toContain(secret);

    const response = await apply(account, domain.id, { provider: 'route53' });
    expect(response.status).toBe(200);
    expect(response.body.apply).toMatchObject({ zone: { name }, credentials: 'stored' });
    expect(response.body.domain.status).toBe('verified');
    expect(response.text).not.toContain(secret);
  });

  it('records written but SES refuses the domain: 502 upstream_error as verify, with the apply report in details', async () => {
    // The SES emulator refuses identities named *.refused-by-ses.test (LOCAL_SES_REFUSE_IDENTITIES, global setup).
    const account = await newAccount({ plan: 'pro' });
    const name = `d${randomUUID().slice(0, 8)}.refused-by-ses.test`;
    await hostedZone(name);
    const domain = await addDomain(account, name);

    const response = await apply(account, domain.id, { provider: 'route53' });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'upstream_error', details: { domain_id: domain.id, status: 'pending' } });
    expect(response.body.error.details.apply).toMatchObject({ provider: 'route53', zone: { name }, credentials: 'service' });
    expect(actions(response.body.error.details.apply.records)).toEqual({
      ownership: 'created',
      dkim: 'created',
      return_path: 'created',
      spf: 'created',
      dmarc: 'created',
    });
    // The records are there: verify needs no DNS change (it fails at SES again, not at DNS).
    expect(await txt(`_dmarc.${name}`)).toHaveLength(1);
    const again = await apply(account, domain.id, { provider: 'route53' });
    expect(again.status).toBe(502);
    expect(Object.values(actions(again.body.error.details.apply.records)).every((action) => action === 'unchanged')).toBe(true);
  });

  it('no hosted zone for the name or a parent: 422 dns_zone_not_found with the names tried', async () => {
    const account = await newAccount({ plan: 'pro' });
    const name = `mail.${uniqueParent()}`;
    const domain = await addDomain(account, name);
    const response = await apply(account, domain.id, { provider: 'route53' });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toMatchObject({ reason: 'dns_zone_not_found', provider: 'route53' });
    expect(response.body.error.details.tried.slice(0, 2)).toEqual([name, name.split('.').slice(1).join('.')]);
    expect(response.body.error.message).toContain(name);
  });
});

describe('apply through Cloudflare', () => {
  it('writes the records in the zone of a parent domain, one SPF record, verifies; again: unchanged', async () => {
    const account = await newAccount({ plan: 'pro' });
    const parent = uniqueParent();
    await cloudflareZone(parent);
    const name = `send.${parent}`;
    // Two SPF records already (SPF fails for every message so): apply merges them into one.
    await publish(name, 'TXT', ['v=spf1 include:a.example.net -all', 'v=spf1 ip4:192.0.2.10 ~all', 'keep=me']);
    const domain = await addDomain(account, name);

    const response = await apply(account, domain.id, { provider: 'cloudflare', credentials: { api_token: CLOUDFLARE_LOCAL_TOKEN } });
    expect(response.status).toBe(200);
    expect(response.body.apply).toMatchObject({ provider: 'cloudflare', zone: { name: parent }, credentials: 'request', settled: null });
    const records = response.body.apply.records as ApplyRecord[];
    expect(actions(records)).toEqual({ ownership: 'created', dkim: 'created', return_path: 'created', spf: 'updated', dmarc: 'created' });
    expect(response.body.domain.status).toBe('verified');
    const apex = await txt(name);
    expect(apex.filter((value) => value.startsWith('v=spf1'))).toEqual([
      `v=spf1 include:a.example.net ip4:192.0.2.10 include:${spfInclude()} -all`,
    ]);
    expect(apex).toContain('keep=me');
    expect(response.text).not.toContain(CLOUDFLARE_LOCAL_TOKEN);

    const again = await apply(account, domain.id, { provider: 'cloudflare', credentials: { api_token: CLOUDFLARE_LOCAL_TOKEN } });
    expect(again.status).toBe(200);
    expect(Object.values(actions(again.body.apply.records)).every((action) => action === 'unchanged')).toBe(true);
  });

  it('a bad token is 400 dns_auth_failed (never echoed); no zone is 422; no token at all is 400', async () => {
    const account = await newAccount({ plan: 'pro' });
    const parent = uniqueParent();
    await cloudflareZone(parent);
    const domain = await addDomain(account, parent);
    const token = `bad${randomUUID().replace(/-/g, '')}`;
    const refused = await apply(account, domain.id, { provider: 'cloudflare', credentials: { api_token: token } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ reason: 'dns_auth_failed', provider: 'cloudflare' });
    expect(refused.text).not.toContain(token);

    const orphan = await addDomain(account, `x.${uniqueParent()}`);
    const missing = await apply(account, orphan.id, { provider: 'cloudflare', credentials: { api_token: CLOUDFLARE_LOCAL_TOKEN } });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.reason).toBe('dns_zone_not_found');

    const none = await apply(account, domain.id, { provider: 'cloudflare' });
    expect(none.status).toBe(400);
    expect(none.body.error.details.fields).toEqual([expect.objectContaining({ field: 'credentials.api_token' })]);
  });

  it('stored credentials: PUT seals them (never returned), apply uses them, DELETE forgets them; tenant keys may not manage them', async () => {
    const account = await newAccount({ plan: 'scale', tenants: true });
    const parent = uniqueParent();
    await cloudflareZone(parent);
    const domain = await addDomain(account, parent);

    const stored = await api('PUT', '/dns-providers/cloudflare', {
      key: account.key,
      body: { credentials: { api_token: CLOUDFLARE_LOCAL_TOKEN } },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.dns_provider).toMatchObject({
      object: 'dns_provider',
      provider: 'cloudflare',
      hint: `…${CLOUDFLARE_LOCAL_TOKEN.slice(-4)}`,
    });
    const listed = await api('GET', '/dns-providers', { key: account.key });
    expect(listed.body.dns_providers).toEqual([stored.body.dns_provider]);
    for (const text of [stored.text, listed.text]) expect(text).not.toContain(CLOUDFLARE_LOCAL_TOKEN);
    // Stored sealed: the table item holds no plaintext token.
    const item = await stack().services.dnsProviders.get(account.id, 'cloudflare');
    expect(JSON.stringify(item)).not.toContain(CLOUDFLARE_LOCAL_TOKEN);

    const response = await apply(account, domain.id, { provider: 'cloudflare' });
    expect(response.status).toBe(200);
    expect(response.body.apply.credentials).toBe('stored');
    expect(response.body.domain.status).toBe('verified');

    const tenant = await api('POST', '/tenants', { key: account.key, body: { external_id: `t-${randomUUID().slice(0, 8)}` } });
    const tenantKey = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'tenant', scopes: ['full'], tenant: tenant.body.tenant.id },
    });
    expect(tenantKey.status).toBe(201);
    expect((await api('GET', '/dns-providers', { key: tenantKey.body.secret })).status).toBe(403);
    expect(
      (
        await api('PUT', '/dns-providers/cloudflare', {
          key: tenantKey.body.secret,
          body: { credentials: { api_token: 'abcdefghijklmnopqrstuvwxyz' } },
        })
      ).status,
    ).toBe(403);

    expect((await api('DELETE', '/dns-providers/cloudflare', { key: account.key })).status).toBe(200);
    expect((await api('DELETE', '/dns-providers/cloudflare', { key: account.key })).status).toBe(404);
    expect((await api('GET', '/dns-providers', { key: account.key })).body.dns_providers).toEqual([]);
    expect((await apply(account, domain.id, { provider: 'cloudflare' })).status).toBe(400);
    expect((await api('PUT', '/dns-providers/godaddy', { key: account.key, body: { credentials: {} } })).status).toBe(404);
  });
});
