/**
 * The Route 53 emulator spoken to by the real AWS SDK (REST-XML as the SDK writes and parses it), its
 * zones a view over a real DNS emulator (answers checked with Node's resolver), and the product's Route
 * 53 adapter (shared/adapters/dns-hosts/route53.ts) against it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChangeResourceRecordSetsCommand,
  CreateHostedZoneCommand,
  GetChangeCommand,
  InvalidChangeBatch,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
  NoSuchHostedZone,
  Route53Client,
} from '@aws-sdk/client-route-53';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { startRoute53Emulator, type Route53Emulator } from '#localstack/emulators/route53';
import { Route53DnsHost } from '#shared/adapters/dns-hosts/route53';
import { DnsHostError } from '#shared/ports/dns-host';

let dns: DnsEmulator;
let route53: Route53Emulator;
let client: Route53Client;
const resolver = new Resolver({ timeout: 2000, tries: 1 });

const clientWith = (accessKeyId: string, secretAccessKey = 'secret') =>
  new Route53Client({ region: 'us-east-1', endpoint: route53.url, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });

beforeAll(async () => {
  dns = await startDnsEmulator({});
  route53 = await startRoute53Emulator({ dns, accessKeys: ['AKIALOCALTEST', 'AKIAOTHER'], syncDelayMs: 300 });
  client = clientWith('AKIALOCALTEST');
  resolver.setServers([dns.address]);
});

afterAll(async () => {
  client.destroy();
  await route53.stop();
  await dns.stop();
});

test('CreateHostedZone and ListHostedZonesByName round-trip through the SDK, in Route 53 order', async () => {
  const created = await client.send(new CreateHostedZoneCommand({ Name: 'zone-a.test', CallerReference: 'ref-a' }));
  expect(created.HostedZone).toMatchObject({ Name: 'zone-a.test.', CallerReference: 'ref-a', Config: { PrivateZone: false } });
  expect(created.HostedZone!.Id).toMatch(/^\/hostedzone\/Z[0-9A-F]+$/);
  expect(created.ChangeInfo!.Id).toMatch(/^\/change\/C/);
  expect(created.DelegationSet!.NameServers!.length).toBeGreaterThan(0);
  expect(created.Location).toContain(created.HostedZone!.Id!.replace('/hostedzone/', ''));
  await client.send(new CreateHostedZoneCommand({ Name: 'sub.zone-a.test.', CallerReference: 'ref-sub' }));
  await client.send(new CreateHostedZoneCommand({ Name: 'zone-b.test', CallerReference: 'ref-b' }));
  await expect(client.send(new CreateHostedZoneCommand({ Name: 'x.test', CallerReference: 'ref-b' }))).rejects.toMatchObject({
    name: 'HostedZoneAlreadyExists',
  });

  const listed = await client.send(new ListHostedZonesByNameCommand({ DNSName: 'zone-a.test', MaxItems: 2 }));
  expect(listed.HostedZones!.map((z) => z.Name)).toEqual(['zone-a.test.', 'sub.zone-a.test.']);
  expect(listed).toMatchObject({ IsTruncated: true, NextDNSName: 'zone-b.test.', MaxItems: 2, DNSName: 'zone-a.test' });
  const next = await client.send(new ListHostedZonesByNameCommand({ DNSName: listed.NextDNSName, HostedZoneId: listed.NextHostedZoneId }));
  expect(next.HostedZones!.map((z) => z.Name)).toEqual(['zone-b.test.']);
  expect(next.IsTruncated).toBe(false);
});

test('UPSERT writes into the DNS emulator (TXT quoted and split, CNAME, MX), GetChange goes PENDING -> INSYNC', async () => {
  const zone = (await client.send(new CreateHostedZoneCommand({ Name: 'write.test', CallerReference: 'ref-write' }))).HostedZone!;
  const long = `v=DKIM1; k=rsa; p=${'A'.repeat(380)}`;
  const changed = await client.send(
    new ChangeResourceRecordSetsCommand({
      HostedZoneId: zone.Id,
      ChangeBatch: {
        Comment: 'test',
        Changes: [
          {
            Action: 'UPSERT',
            ResourceRecordSet: {
              Name: 'sel._domainkey.write.test',
              Type: 'TXT',
              TTL: 300,
              ResourceRecords: [{ Value: `"${long.slice(0, 255)}" "${long.slice(255)}"` }],
            },
          },
          {
            Action: 'UPSERT',
            ResourceRecordSet: {
              Name: 'write.test.',
              Type: 'TXT',
              TTL: 300,
              ResourceRecords: [{ Value: '"v=spf1 -all"' }, { Value: '"say \\"hi\\""' }],
            },
          },
          {
            Action: 'CREATE',
            ResourceRecordSet: { Name: 'rp.write.test', Type: 'CNAME', TTL: 300, ResourceRecords: [{ Value: 'rp.mail.example' }] },
          },
          {
            Action: 'UPSERT',
            ResourceRecordSet: { Name: 'inbound.write.test', Type: 'MX', TTL: 300, ResourceRecords: [{ Value: '10 mx.mail.example' }] },
          },
        ],
      },
    }),
  );
  expect(changed.ChangeInfo).toMatchObject({ Status: 'PENDING', Comment: 'test' });
  expect(changed.ChangeInfo!.SubmittedAt).toBeInstanceOf(Date);
  expect((await resolver.resolveTxt('sel._domainkey.write.test')).map((chunks) => chunks.join(''))).toEqual([long]);
  expect((await resolver.resolveTxt('write.test')).map((chunks) => chunks.join('')).sort()).toEqual(['say "hi"', 'v=spf1 -all']);
  expect(await resolver.resolveCname('rp.write.test')).toEqual(['rp.mail.example']);
  expect(await resolver.resolveMx('inbound.write.test')).toEqual([{ exchange: 'mx.mail.example', priority: 10 }]);

  const id = changed.ChangeInfo!.Id!;
  expect((await client.send(new GetChangeCommand({ Id: id }))).ChangeInfo!.Status).toBe('PENDING');
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect((await client.send(new GetChangeCommand({ Id: id }))).ChangeInfo!.Status).toBe('INSYNC');
  await expect(client.send(new GetChangeCommand({ Id: 'CNOSUCH' }))).rejects.toMatchObject({ name: 'NoSuchChange' });

  // Listed back as Route 53 does: names dotted, TXT quoted, the apex's NS and SOA first.
  const listed = await client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zone.Id }));
  const sets = listed.ResourceRecordSets!.map((set) => [set.Name, set.Type, set.ResourceRecords!.map((r) => r.Value)]);
  expect(sets[0]).toEqual(['write.test.', 'NS', expect.any(Array)]);
  expect(sets[1]).toEqual(['write.test.', 'SOA', expect.any(Array)]);
  expect(sets).toContainEqual(['write.test.', 'TXT', expect.arrayContaining(['"v=spf1 -all"', '"say \\"hi\\""'])]);
  expect(sets).toContainEqual(['sel._domainkey.write.test.', 'TXT', [`"${long.slice(0, 255)}" "${long.slice(255)}"`]]);
  const one = await client.send(
    new ListResourceRecordSetsCommand({ HostedZoneId: zone.Id, StartRecordName: 'inbound.write.test', StartRecordType: 'MX', MaxItems: 1 }),
  );
  expect(one.ResourceRecordSets).toEqual([expect.objectContaining({ Name: 'inbound.write.test.', Type: 'MX', TTL: 300 })]);
  expect(one).toMatchObject({ IsTruncated: true, NextRecordName: 'rp.write.test.', NextRecordType: 'CNAME' });
});

test('a batch is all or nothing: InvalidChangeBatch names each problem and nothing is written', async () => {
  const zone = (await client.send(new CreateHostedZoneCommand({ Name: 'atomic.test', CallerReference: 'ref-atomic' }))).HostedZone!;
  dns.setRecords({ name: 'www.atomic.test', type: 'A', values: ['192.0.2.1'] });
  const attempt = client.send(
    new ChangeResourceRecordSetsCommand({
      HostedZoneId: zone.Id,
      ChangeBatch: {
        Changes: [
          {
            Action: 'UPSERT',
            ResourceRecordSet: { Name: 'ok.atomic.test', Type: 'TXT', TTL: 300, ResourceRecords: [{ Value: '"fine"' }] },
          },
          {
            Action: 'UPSERT',
            ResourceRecordSet: { Name: 'www.atomic.test', Type: 'CNAME', TTL: 300, ResourceRecords: [{ Value: 'elsewhere.test' }] },
          },
          {
            Action: 'UPSERT',
            ResourceRecordSet: { Name: 'unquoted.atomic.test', Type: 'TXT', TTL: 300, ResourceRecords: [{ Value: 'no quotes' }] },
          },
          { Action: 'UPSERT', ResourceRecordSet: { Name: 'other.test', Type: 'TXT', TTL: 300, ResourceRecords: [{ Value: '"x"' }] } },
        ],
      },
    }),
  );
  const error = (await attempt.catch((e: unknown) => e)) as InvalidChangeBatch;
  expect(error).toBeInstanceOf(InvalidChangeBatch);
  expect(error.$metadata.httpStatusCode).toBe(400);
  expect(error.message).toContain('CNAME');
  expect(error.message).toContain('quotation marks');
  expect(error.message).toContain('not permitted in zone atomic.test.');
  expect(dns.listRecords('ok.atomic.test')).toEqual([]);
  await expect(client.send(new ListResourceRecordSetsCommand({ HostedZoneId: 'ZNOSUCHZONE' }))).rejects.toBeInstanceOf(NoSuchHostedZone);
});

test('an unknown access key is refused as Route 53 does (403 InvalidClientTokenId)', async () => {
  const stranger = clientWith('AKIASTRANGER');
  await expect(stranger.send(new ListHostedZonesByNameCommand({}))).rejects.toMatchObject({
    name: 'InvalidClientTokenId',
    $metadata: { httpStatusCode: 403 },
  });
  stranger.destroy();
});

describe('the Route 53 adapter against the emulator', () => {
  let zoneId: string;

  beforeAll(async () => {
    zoneId = (
      await client.send(new CreateHostedZoneCommand({ Name: 'adapter.test', CallerReference: 'ref-adapter' }))
    ).HostedZone!.Id!.replace('/hostedzone/', '');
    // A private zone of the same name is never the one written.
    await client.send(
      new CreateHostedZoneCommand({ Name: 'mail.adapter.test', CallerReference: 'ref-private', HostedZoneConfig: { PrivateZone: true } }),
    );
    dns.setRecords({ name: 'adapter.test', type: 'TXT', values: ['v=spf1 include:_spf.example.net ~all', 'google-site-verification=abc'] });
  });

  test('finds the longest public zone, reads values normalised, UPSERTs sets and settles', async () => {
    const host = new Route53DnsHost(client, { settleMs: 3000, pollMs: 100 });
    const found = await host.findZone('mail.adapter.test');
    expect(found).toEqual({ zone: { id: zoneId, name: 'adapter.test' }, tried: ['mail.adapter.test', 'adapter.test'] });
    const zone = found.zone!;
    expect((await host.read(zone, 'adapter.test', 'TXT')).sort()).toEqual([
      'google-site-verification=abc',
      'v=spf1 include:_spf.example.net ~all',
    ]);
    expect(await host.read(zone, 'nothing.adapter.test', 'TXT')).toEqual([]);

    const outcomes = await host.write(zone, [
      {
        name: 'adapter.test',
        type: 'TXT',
        values: ['google-site-verification=abc', 'v=spf1 include:_spf.example.net include:spf.mail.test ~all'],
      },
      { name: 'rp.adapter.test', type: 'CNAME', values: ['rp.mail.test'] },
      { name: 'inbound.adapter.test', type: 'MX', values: ['10 inbound.mail.test'] },
    ]);
    expect(outcomes).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(await host.settle()).toBe(true);
    expect((await resolver.resolveTxt('adapter.test')).map((c) => c.join('')).sort()).toEqual([
      'google-site-verification=abc',
      'v=spf1 include:_spf.example.net include:spf.mail.test ~all',
    ]);
    expect(await host.read(zone, 'rp.adapter.test', 'CNAME')).toEqual(['rp.mail.test']);
    expect(await host.read(zone, 'inbound.adapter.test', 'MX')).toEqual(['10 inbound.mail.test']);
  });

  test('a refused set fails alone: the others of the batch are still written', async () => {
    const host = new Route53DnsHost(client, { settleMs: 0 });
    dns.setRecords({ name: 'busy.adapter.test', type: 'TXT', values: ['in the way'] });
    const outcomes = await host.write({ id: zoneId, name: 'adapter.test' }, [
      { name: 'one.adapter.test', type: 'TXT', values: ['first'] },
      { name: 'busy.adapter.test', type: 'CNAME', values: ['elsewhere.test'] },
      { name: 'two.adapter.test', type: 'TXT', values: ['second'] },
    ]);
    expect(outcomes[0]).toEqual({ ok: true });
    expect(outcomes[1]).toEqual({ ok: false, message: expect.stringContaining('CNAME') });
    expect(outcomes[2]).toEqual({ ok: true });
    expect(dns.listRecords('two.adapter.test')).toEqual([expect.objectContaining({ values: ['second'] })]);
  });

  test('no zone: null with every name tried', async () => {
    const host = new Route53DnsHost(client);
    expect(await host.findZone('a.b.nowhere.test')).toEqual({ zone: null, tried: ['a.b.nowhere.test', 'b.nowhere.test', 'nowhere.test'] });
  });

  test('refused credentials are an auth failure whose message holds no secret; an unreachable endpoint is unavailable', async () => {
    const secret = 'S3cretS3cretS3cret';
    const bad = new Route53DnsHost(clientWith('AKIASTRANGER', secret), { secrets: ['AKIASTRANGER', secret] });
    const error = (await bad.findZone('adapter.test').catch((e: unknown) => e)) as DnsHostError;
    expect(error).toBeInstanceOf(DnsHostError);
    expect(error.failure.kind).toBe('auth');
    expect(error.message).not.toContain('AKIASTRANGER');
    expect(error.message).not.toContain(secret);

    const down = new Route53DnsHost(
      new Route53Client({
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9',
        credentials: { accessKeyId: 'AKIALOCALTEST', secretAccessKey: 'x' },
        maxAttempts: 1,
      }),
    );
    const outage = (await down.findZone('adapter.test').catch((e: unknown) => e)) as DnsHostError;
    expect(outage.failure.kind).toBe('unavailable');
  });
});

describe('the Route 53 adapter: settling and Route 53 errors', () => {
  test('settle() answers false when the change is still PENDING after settleMs', async () => {
    const zoneId = (
      await client.send(new CreateHostedZoneCommand({ Name: 'slow.test', CallerReference: 'ref-slow' }))
    ).HostedZone!.Id!.replace('/hostedzone/', '');
    // The emulator keeps a change PENDING for 300 ms; 50 ms of polling is not enough.
    const host = new Route53DnsHost(client, { settleMs: 50, pollMs: 20 });
    expect(await host.write({ id: zoneId, name: 'slow.test' }, [{ name: 'slow.test', type: 'TXT', values: ['x'] }])).toEqual([
      { ok: true },
    ]);
    expect(await host.settle()).toBe(false);
  });

  /** A client whose every call fails as Route 53 answers `name`. */
  const failing = (name: string, status: number, message: string) =>
    ({
      send: async () => Promise.reject(Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } })),
      destroy: () => undefined,
    }) as unknown as Route53Client;

  test.each([
    [
      'AccessDenied',
      403,
      'not_permitted',
      /may not call route53:ListHostedZonesByName .*They need route53:ListHostedZonesByName, ListResourceRecordSets, ChangeResourceRecordSets and GetChange/,
    ],
    ['ExpiredToken', 403, 'auth', /refused the AWS credentials \(ExpiredToken on ListHostedZonesByName\)/],
    ['Throttling', 400, 'unavailable', /could not be reached or failed \(Throttling on ListHostedZonesByName\)/],
    ['ServiceUnavailable', 503, 'unavailable', /could not be reached or failed/],
  ] as const)('%s (%i) is a %s failure, the key scrubbed from the message', async (name, status, kind, message) => {
    const host = new Route53DnsHost(failing(name, status, 'User AKIASCRUBME0000 failed'), { secrets: ['AKIASCRUBME0000'] });
    const error = (await host.findZone('adapter.test').catch((e: unknown) => e)) as DnsHostError;
    expect(error).toBeInstanceOf(DnsHostError);
    expect(error.failure.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('AKIASCRUBME0000');
  });

  test('a batch refused for another reason than its content (AccessDenied on ChangeResourceRecordSets) is thrown, not reported per set', async () => {
    const host = new Route53DnsHost(failing('AccessDenied', 403, 'not authorized'));
    const error = (await host
      .write({ id: 'Z1', name: 'adapter.test' }, [{ name: 'adapter.test', type: 'TXT', values: ['x'] }])
      .catch((e: unknown) => e)) as DnsHostError;
    expect(error).toBeInstanceOf(DnsHostError);
    expect(error.failure.kind).toBe('not_permitted');
    expect(error.message).toContain('route53:ChangeResourceRecordSets');
  });
});

test('zones survive a restart with a data directory; records stay in the DNS emulator', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'route53-'));
  try {
    const first = await startRoute53Emulator({ dns, dataDir: dir });
    const zone = first.createZone('persist.test');
    await first.stop();
    const second = await startRoute53Emulator({ dns, dataDir: dir });
    expect(second.zones()).toEqual([zone]);
    const sdk = new Route53Client({
      region: 'us-east-1',
      endpoint: second.url,
      credentials: { accessKeyId: 'any', secretAccessKey: 'any' },
      maxAttempts: 1,
    });
    expect((await sdk.send(new ListHostedZonesByNameCommand({ DNSName: 'persist.test' }))).HostedZones![0]!.Id).toBe(
      `/hostedzone/${zone.id}`,
    );
    sdk.destroy();
    await second.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
