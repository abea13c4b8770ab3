/**
 * The fake Cloudflare API (envelope, paging, auth answers, records as a view over a real DNS emulator)
 * and the product's Cloudflare adapter (shared/adapters/dns-hosts/cloudflare.ts) against it.
 */
import { Resolver } from 'node:dns/promises';
import { startCloudflareEmulator, CLOUDFLARE_LOCAL_TOKEN, type CloudflareEmulator } from '#localstack/emulators/cloudflare';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { serveHttp } from '#localstack/emulators/http-server';
import { DnsHostError } from '#shared/ports/dns-host';
import { CloudflareDnsHost } from '#shared/adapters/dns-hosts/cloudflare';

let dns: DnsEmulator;
let cf: CloudflareEmulator;
const resolver = new Resolver({ timeout: 2000, tries: 1 });

async function call(method: string, path: string, body?: unknown, token: string | null = CLOUDFLARE_LOCAL_TOKEN) {
  const response = await fetch(`${cf.apiUrl}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  dns = await startDnsEmulator({});
  cf = await startCloudflareEmulator({ dns });
  resolver.setServers([dns.address]);
});

afterAll(async () => {
  await cf.stop();
  await dns.stop();
});

describe('the fake API', () => {
  test('zones: create, find by name, envelope and result_info', async () => {
    const created = await call('POST', '/zones', { name: 'Fake-A.test' });
    expect(created).toMatchObject({ status: 200, body: { success: true, errors: [], result: { name: 'fake-a.test', status: 'active' } } });
    expect(created.body.result.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await call('POST', '/zones', { name: 'fake-a.test' })).body).toMatchObject({ success: false, errors: [{ code: 1061 }] });
    const found = await call('GET', '/zones?name=fake-a.test');
    expect(found.body.result.map((z: { name: string }) => z.name)).toEqual(['fake-a.test']);
    expect(found.body.result_info).toEqual({ page: 1, per_page: 50, count: 1, total_count: 1, total_pages: 1 });
    expect((await call('GET', '/zones?name=none.test')).body.result).toEqual([]);
    expect((await call('GET', '/user/tokens/verify')).body.result.status).toBe('active');
  });

  test('auth: no or malformed header 400 6003 (6111 in the chain), an unknown token 403 10000', async () => {
    expect(await call('GET', '/zones', undefined, null)).toMatchObject({
      status: 400,
      body: { success: false, errors: [{ code: 6003, error_chain: [{ code: 6111 }] }] },
    });
    expect(await call('GET', '/zones', undefined, 'short')).toMatchObject({ status: 400 });
    expect(await call('GET', '/zones', undefined, 'x'.repeat(40))).toMatchObject({
      status: 403,
      body: { errors: [{ code: 10000, message: 'Authentication error' }] },
    });
  });

  test('records: one per value, TXT answered quoted, MX with priority; written through to DNS; paging; conflicts refused', async () => {
    const zone = (await call('POST', '/zones', { name: 'records.test' })).body.result;
    const base = `/zones/${zone.id}/dns_records`;
    const txt = await call('POST', base, { type: 'TXT', name: 'records.test', content: '"v=spf1 -all"', ttl: 1 });
    expect(txt.body.result).toMatchObject({ type: 'TXT', name: 'records.test', content: '"v=spf1 -all"', ttl: 300, zone_id: zone.id });
    await call('POST', base, { type: 'TXT', name: '@', content: 'plain text' });
    await call('POST', base, { type: 'MX', name: 'inbound', content: 'mx.mail.test', priority: 10, ttl: 300 });
    expect((await resolver.resolveTxt('records.test')).map((c) => c.join('')).sort()).toEqual(['plain text', 'v=spf1 -all']);
    expect(await resolver.resolveMx('inbound.records.test')).toEqual([{ exchange: 'mx.mail.test', priority: 10 }]);
    const mx = (await call('GET', `${base}?type=MX&name=inbound.records.test`)).body.result;
    expect(mx).toEqual([expect.objectContaining({ content: 'mx.mail.test', priority: 10 })]);

    const paged = await call('GET', `${base}?type=TXT&name=records.test&per_page=1&page=2`);
    expect(paged.body.result).toHaveLength(1);
    expect(paged.body.result_info).toMatchObject({ page: 2, per_page: 1, count: 1, total_count: 2, total_pages: 2 });

    expect((await call('POST', base, { type: 'TXT', name: 'records.test', content: 'plain text' })).body.errors[0].code).toBe(81058);
    expect((await call('POST', base, { type: 'CNAME', name: 'records.test', content: 'else.test' })).body.errors[0].code).toBe(81053);
    // Names outside the zone are taken as relative to it, as Cloudflare does.
    expect((await call('POST', base, { type: 'TXT', name: 'other.test', content: 'x' })).body.result.name).toBe('other.test.records.test');

    // PUT overwrites one value, DELETE removes one; the set's other values stay.
    const id = txt.body.result.id;
    expect(
      (await call('PUT', `${base}/${id}`, { type: 'TXT', name: 'records.test', content: '"v=spf1 include:x.test -all"', ttl: 300 })).body
        .success,
    ).toBe(true);
    expect((await resolver.resolveTxt('records.test')).map((c) => c.join('')).sort()).toEqual(['plain text', 'v=spf1 include:x.test -all']);
    const plain = (await call('GET', `${base}?type=TXT&name=records.test`)).body.result.find(
      (r: { content: string }) => r.content === '"plain text"',
    );
    expect((await call('DELETE', `${base}/${plain.id}`)).body.result).toEqual({ id: plain.id });
    expect((await resolver.resolveTxt('records.test')).map((c) => c.join(''))).toEqual(['v=spf1 include:x.test -all']);
    expect((await call('DELETE', `${base}/${plain.id}`)).status).toBe(404);
  });
});

describe('the Cloudflare adapter against the fake', () => {
  let zoneId: string;
  const host = () => new CloudflareDnsHost(CLOUDFLARE_LOCAL_TOKEN, { baseUrl: cf.apiUrl });

  beforeAll(async () => {
    zoneId = cf.createZone('adapter-cf.test').id;
    dns.setRecords({
      name: 'adapter-cf.test',
      type: 'TXT',
      values: ['v=spf1 include:a.test ~all', 'v=spf1 include:b.test -all', 'keep-me=1'],
    });
  });

  test('zone by name (longest first), values normalised, a set written as its difference', async () => {
    const cloudflare = host();
    const found = await cloudflare.findZone('sub.adapter-cf.test');
    expect(found).toEqual({ zone: { id: zoneId, name: 'adapter-cf.test' }, tried: ['sub.adapter-cf.test', 'adapter-cf.test'] });
    const zone = found.zone!;
    const before = await cloudflare.read(zone, 'adapter-cf.test', 'TXT');
    expect(before.sort()).toEqual(['keep-me=1', 'v=spf1 include:a.test ~all', 'v=spf1 include:b.test -all']);
    const merged = 'v=spf1 include:a.test include:b.test include:spf.mail.test ~all';
    const long = `v=DKIM1; k=rsa; p=${'B'.repeat(400)}`;
    const outcomes = await cloudflare.write(zone, [
      { name: 'adapter-cf.test', type: 'TXT', values: ['keep-me=1', merged] },
      { name: 'sel._domainkey.adapter-cf.test', type: 'TXT', values: [long] },
      { name: 'rp.adapter-cf.test', type: 'CNAME', values: ['rp.mail.test'] },
      { name: 'inbound.adapter-cf.test', type: 'MX', values: ['10 inbound.mail.test'] },
    ]);
    expect(outcomes).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    // One SPF record (the first overwritten, the second deleted); the unrelated value untouched.
    expect((await resolver.resolveTxt('adapter-cf.test')).map((c) => c.join('')).sort()).toEqual(['keep-me=1', merged]);
    expect((await resolver.resolveTxt('sel._domainkey.adapter-cf.test')).map((c) => c.join(''))).toEqual([long]);
    expect(await resolver.resolveCname('rp.adapter-cf.test')).toEqual(['rp.mail.test']);
    expect(await cloudflare.read(zone, 'inbound.adapter-cf.test', 'MX')).toEqual(['10 inbound.mail.test']);
  });

  test('a record Cloudflare refuses fails alone', async () => {
    dns.setRecords({ name: 'busy.adapter-cf.test', type: 'A', values: ['192.0.2.9'] });
    const outcomes = await host().write({ id: zoneId, name: 'adapter-cf.test' }, [
      { name: 'busy.adapter-cf.test', type: 'CNAME', values: ['elsewhere.test'] },
      { name: 'fine.adapter-cf.test', type: 'TXT', values: ['fine'] },
    ]);
    expect(outcomes).toEqual([{ ok: false, message: expect.stringContaining('81053') }, { ok: true }]);
  });

  test('no zone: null with the names tried; a bad token is auth (never quoted); an unreachable API is unavailable', async () => {
    expect(await host().findZone('x.nowhere-cf.test')).toEqual({ zone: null, tried: ['x.nowhere-cf.test', 'nowhere-cf.test'] });
    const token = 'bad-token-0123456789abcdefghijklmnop';
    const error = (await new CloudflareDnsHost(token, { baseUrl: cf.apiUrl })
      .findZone('adapter-cf.test')
      .catch((e: unknown) => e)) as DnsHostError;
    expect(error).toBeInstanceOf(DnsHostError);
    expect(error.failure.kind).toBe('auth');
    expect(error.message).not.toContain(token);
    const down = (await new CloudflareDnsHost(CLOUDFLARE_LOCAL_TOKEN, { baseUrl: 'http://127.0.0.1:9/client/v4' })
      .findZone('a.test')
      .catch((e: unknown) => e)) as DnsHostError;
    expect(down.failure.kind).toBe('unavailable');
  });
});

describe('the Cloudflare adapter: what Cloudflare answers besides success', () => {
  /** A server answering reads (GET) and writes (any other method) with the status and body given for each. */
  async function answering(read: { status: number; body: unknown }, write = read) {
    return serveHttp({}, (req, _raw, res) => {
      const { status, body } = req.method === 'GET' ? read : write;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  }
  const token = 'tok-0123456789abcdefghijklmnop';
  const failure = (errors: { code: number; message: string }[]) => ({ success: false, errors, messages: [], result: null });

  test.each([
    [
      503,
      'unavailable',
      /Cloudflare is unavailable \(503 on GET \/zones/,
      failure([{ code: 10000, message: `upstream down for ${token}` }]),
    ],
    [
      429,
      'unavailable',
      /Cloudflare is unavailable \(429/,
      failure([{ code: 971, message: 'Please wait and consider throttling your request speed' }]),
    ],
    [401, 'auth', /refused the API token \(401/, failure([{ code: 9109, message: 'Invalid access token' }])],
    [404, 'unavailable', /Cloudflare refused GET \/zones \(404: 7003/, failure([{ code: 7003, message: 'Could not route' }])],
    [200, 'unavailable', /body that is not JSON/, '<html>not json</html>'],
  ] as const)('%i on a read is a %s failure; the token never quoted', async (status, kind, message, body) => {
    const server = await answering({ status, body });
    try {
      const error = (await new CloudflareDnsHost(token, { baseUrl: server.url })
        .findZone('a.test')
        .catch((e: unknown) => e)) as DnsHostError;
      expect(error).toBeInstanceOf(DnsHostError);
      expect(error.failure.kind).toBe(kind);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(token);
    } finally {
      await server.stop();
    }
  });

  test('a write answered 5xx stops apply (thrown), a write answered 4xx fails that record only', async () => {
    const empty = { status: 200, body: { success: true, errors: [], messages: [], result: [], result_info: { page: 1, total_pages: 1 } } };
    const refused = failure([{ code: 9005, message: 'Content for TXT record is invalid' }]);
    for (const [status, thrown] of [
      [500, true],
      [400, false],
    ] as const) {
      const server = await answering(empty, { status, body: refused });
      try {
        const outcome = await new CloudflareDnsHost(token, { baseUrl: server.url })
          .write({ id: 'z1', name: 'a.test' }, [{ name: 'a.test', type: 'TXT', values: ['x'] }])
          .catch((e: unknown) => e);
        if (thrown) expect(outcome).toMatchObject({ failure: { kind: 'unavailable' } });
        else expect(outcome).toEqual([{ ok: false, message: expect.stringContaining('9005') }]);
      } finally {
        await server.stop();
      }
    }
  });
});
