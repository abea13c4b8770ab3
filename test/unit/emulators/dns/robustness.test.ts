/** Garbage on the wire never crashes the server, and it keeps answering. */
import * as dgram from 'node:dgram';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { encodeMessage } from '#localstack/emulators/dns/wire';
import { frame, frameCount, query, resolverFor, tcpExchange, udpExchange, unframe } from './harness';

let emu: DnsEmulator;
const log: string[] = [];

beforeAll(async () => {
  emu = await startDnsEmulator({ log: (m) => log.push(m) });
  emu.setRecords({ name: '_service.robust.test', type: 'TXT', values: ['still here'] });
});

afterAll(async () => {
  await emu.stop();
});

test('malformed UDP packets are dropped and logged; the server keeps answering', async () => {
  const packets = [
    Buffer.alloc(0),
    Buffer.from([1, 2, 3]),
    Buffer.from('0001010000010000000000000fc00c00010001', 'hex'), // label runs past the end
    Buffer.from('000101000001000000000000c00c00100001', 'hex'), // pointer to itself
    Buffer.alloc(1400, 0xff),
  ];
  for (const packet of packets) expect(await udpExchange(emu.port, packet, 150)).toBeUndefined();
  expect(log.filter((l) => l.includes('dropped a malformed udp packet'))).toHaveLength(packets.length);
  expect(await resolverFor(emu).resolveTxt('_service.robust.test')).toEqual([['still here']]);
});

test('a burst of random datagrams does not crash the server', async () => {
  const socket = dgram.createSocket('udp4');
  let seed = 7;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % 256;
  };
  await Promise.all(
    Array.from(
      { length: 300 },
      () =>
        new Promise<void>((resolve) =>
          socket.send(Buffer.from(Array.from({ length: 12 + (rand() % 60) }, rand)), emu.port, '127.0.0.1', () => resolve()),
        ),
    ),
  );
  socket.close();
  expect(await resolverFor(emu).resolveTxt('_service.robust.test')).toEqual([['still here']]);
});

test('TCP: a malformed message closes the connection; the server keeps answering', async () => {
  const bad = await tcpExchange(emu.port, frame(Buffer.from([0, 1, 2, 3, 4])), 2000);
  expect(bad).toEqual({ received: Buffer.alloc(0), closedByServer: true });
  // A good query followed by garbage: the good one is answered, then the connection closes.
  const mixed = await tcpExchange(
    emu.port,
    Buffer.concat([frame(encodeMessage(query('_service.robust.test', 'TXT'))), frame(Buffer.alloc(20, 0xff))]),
    2000,
  );
  expect(mixed.closedByServer).toBe(true);
  expect(log.some((l) => l.includes('dropped a malformed tcp packet'))).toBe(true);
  expect(await resolverFor(emu).resolveTxt('_service.robust.test')).toEqual([['still here']]);
});

test('TCP: pipelined queries on one connection, and a query split across writes', async () => {
  const q1 = encodeMessage(query('_service.robust.test', 'TXT', { id: 1 }));
  const q2 = encodeMessage(query('nothing.robust.test', 'TXT', { id: 2 }));
  const { received } = await tcpExchange(emu.port, Buffer.concat([frame(q1), frame(q2)]), 2000, (r) => frameCount(r) >= 2);
  const answers = unframe(received).sort((a, b) => a.id - b.id);
  expect(answers.map((a) => [a.id, a.rcode, a.answers.length])).toEqual([
    [1, 0, 1],
    [2, 3, 0],
  ]);
});

test('a client that connects and goes away does no harm', async () => {
  await tcpExchange(emu.port, Buffer.from([0]), 100); // one byte of a length prefix, then we hang up
  expect(await resolverFor(emu).resolveTxt('_service.robust.test')).toEqual([['still here']]);
});

test('a requested port is used for both UDP and TCP; a taken port fails start', async () => {
  const probe = await startDnsEmulator();
  const port = probe.port;
  await probe.stop();
  const fixed = await startDnsEmulator({ port });
  try {
    expect(fixed.port).toBe(port);
    fixed.setRecords({ name: 'fixed.test', type: 'TXT', values: ['ok'] });
    expect(await resolverFor(fixed).resolveTxt('fixed.test')).toEqual([['ok']]);
    await expect(startDnsEmulator({ port })).rejects.toThrow(/EADDRINUSE/);
  } finally {
    await fixed.stop();
  }
});

test('stop() is idempotent and frees the port', async () => {
  const e = await startDnsEmulator();
  const port = e.port;
  await Promise.all([e.stop(), e.stop()]);
  const again = await startDnsEmulator({ port });
  expect(again.port).toBe(port);
  await again.stop();
});
