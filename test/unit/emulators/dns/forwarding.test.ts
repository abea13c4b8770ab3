/** Forwarding names outside the local zones to upstream resolvers (here: a second emulator). */
import * as dgram from 'node:dgram';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { errorCode, query, resolverFor, udpQuery } from './harness';

let upstream: DnsEmulator;
let front: DnsEmulator;
/** A UDP socket that never answers: a dead upstream. */
let blackHole: dgram.Socket;
let blackHoleAddress: string;
const log: string[] = [];
const upstreamLog: string[] = [];

beforeAll(async () => {
  upstream = await startDnsEmulator({ log: (m) => upstreamLog.push(m) });
  upstream.setRecords({ name: '_service.remote.example', type: 'TXT', values: ['remote-token'] });
  upstream.setRecords({ name: 'remote.example', type: 'MX', values: ['10 mx.remote.example'] });
  upstream.setRecords({ name: 'bounce.provider.example', type: 'TXT', values: ['v=spf1 include:provider.example -all'] });
  upstream.setRecords({ name: 'bounce.provider.example', type: 'A', values: ['192.0.2.50'] });
  upstream.setRecords({ name: 'other.shared.example', type: 'TXT', values: ['from upstream'] });
  upstream.setRecords({
    name: 'big.remote.example',
    type: 'TXT',
    values: Array.from({ length: 30 }, (_, i) => `chunk-${i}-${'r'.repeat(60)}`),
  });
  front = await startDnsEmulator({ upstream: [upstream.address], log: (m) => log.push(m) });
  front.setRecords({ name: '_service.shared.example', type: 'TXT', values: ['local-token'] });
  front.setRecords({ name: 'rp.local.example', type: 'CNAME', values: ['bounce.provider.example'] });
  blackHole = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => blackHole.bind(0, '127.0.0.1', () => resolve()));
  blackHoleAddress = `127.0.0.1:${blackHole.address().port}`;
});

afterAll(async () => {
  await front.stop();
  await upstream.stop();
  blackHole.close();
});

test('names outside the local zones are forwarded and the answer relayed', async () => {
  const resolver = resolverFor(front);
  expect(await resolver.resolveTxt('_service.remote.example')).toEqual([['remote-token']]);
  expect(await resolver.resolveMx('remote.example')).toEqual([{ priority: 10, exchange: 'mx.remote.example' }]);
  expect(await errorCode(resolver.resolveTxt('_dmarc.remote.example'))).toBe('ENOTFOUND');
  expect(await errorCode(resolver.resolveTxt('remote.example'))).toBe('ENODATA');
  const { msg } = await udpQuery(front.port, query('_SERVICE.Remote.Example', 'TXT'));
  expect(msg).toMatchObject({ ra: true, rcode: 0, id: 0x1234 });
  expect(msg.questions[0]?.name).toBe('_SERVICE.Remote.Example');
});

test('a large upstream answer goes UDP (TC) -> TCP upstream, and UDP (TC) -> TCP to the client', async () => {
  log.length = 0;
  upstreamLog.length = 0;
  const records = await resolverFor(front).resolveTxt('big.remote.example');
  expect(records).toHaveLength(30);
  expect(records[29]?.join('')).toBe(`chunk-29-${'r'.repeat(60)}`);
  expect(log.some((l) => l.startsWith('dns: tcp TXT big.remote.example'))).toBe(true);
  expect(upstreamLog.some((l) => l.startsWith('dns: tcp TXT big.remote.example'))).toBe(true);
});

test('local zones shadow the upstream: other names in a local zone are NXDOMAIN, not forwarded', async () => {
  const resolver = resolverFor(front);
  expect(await resolver.resolveTxt('_service.shared.example')).toEqual([['local-token']]);
  expect(await errorCode(resolver.resolveTxt('other.shared.example'))).toBe('ENOTFOUND');
});

test('a local CNAME to an outside name is followed through the upstream', async () => {
  const resolver = resolverFor(front);
  expect(await resolver.resolveTxt('rp.local.example')).toEqual([['v=spf1 include:provider.example -all']]);
  expect(await resolver.resolve4('rp.local.example')).toEqual(['192.0.2.50']);
  expect(await resolver.resolveCname('rp.local.example')).toEqual(['bounce.provider.example']);
  const { msg } = await udpQuery(front.port, query('rp.local.example', 'TXT'));
  expect(msg.answers.map((rr) => [rr.name, rr.type])).toEqual([
    ['rp.local.example', 'CNAME'],
    ['bounce.provider.example', 'TXT'],
  ]);
});

test('a dead upstream is skipped for the next one; with none answering the client gets SERVFAIL', async () => {
  const failover = await startDnsEmulator({ upstream: [blackHoleAddress, upstream.address], upstreamTimeoutMs: 200 });
  const dead = await startDnsEmulator({ upstream: [blackHoleAddress], upstreamTimeoutMs: 200 });
  try {
    expect(await resolverFor(failover, 2000).resolveTxt('_service.remote.example')).toEqual([['remote-token']]);
    expect(await errorCode(resolverFor(dead, 2000).resolveTxt('_service.remote.example'))).toBe('ESERVFAIL');
  } finally {
    await failover.stop();
    await dead.stop();
  }
});

test("without upstream, unknownNames: 'refused' answers REFUSED (Node: EREFUSED)", async () => {
  const refusing = await startDnsEmulator({ unknownNames: 'refused' });
  try {
    expect(await errorCode(resolverFor(refusing).resolveTxt('_service.remote.example'))).toBe('EREFUSED');
    expect((await udpQuery(refusing.port, query('remote.example', 'TXT'))).msg).toMatchObject({ rcode: 5, aa: false, ra: false });
  } finally {
    await refusing.stop();
  }
});

test('stop() does not wait for upstream timeouts', async () => {
  const slow = await startDnsEmulator({ upstream: [blackHoleAddress], upstreamTimeoutMs: 10_000 });
  const pending = errorCode(resolverFor(slow, 5000).resolveTxt('_service.remote.example'));
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await slow.stop();
  expect(Date.now() - started).toBeLessThan(1000);
  await pending; // the client times out or gets SERVFAIL; either way it settles
});

test('upstream addresses are validated at start', async () => {
  await expect(startDnsEmulator({ upstream: ['dns.google:53'] })).rejects.toThrow(/must be an IP address/);
  await expect(startDnsEmulator({ upstream: ['127.0.0.1:99999'] })).rejects.toThrow(/bad port/);
});
