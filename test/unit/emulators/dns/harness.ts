/** Helpers for the DNS emulator tests: a Node resolver pointed at an emulator, and raw UDP/TCP queries. */
import * as dgram from 'node:dgram';
import { promises as dnsPromises } from 'node:dns';
import * as net from 'node:net';
import type { OptAnswer } from 'dns-packet';
import type { DnsEmulator } from '#localstack/emulators/dns';
import type { DnsMessage } from '#localstack/emulators/dns/dns-message';
import { decodeMessage, encodeMessage } from '#localstack/emulators/dns/wire';

/** The client the product uses: dns.promises.Resolver with the emulator as its only server. */
export function resolverFor(emu: DnsEmulator, timeout = 1000): dnsPromises.Resolver {
  const resolver = new dnsPromises.Resolver({ timeout, tries: 2 });
  resolver.setServers([emu.address]);
  return resolver;
}

/** The error code a promise rejects with (fails the test if it resolves). */
export async function errorCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    const value = await p;
    throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
}

/** A query for `name` with a type as dns-packet names it ('TXT', 'MX', ... or UNKNOWN_<n>). */
export function query(name: string, type: string, extra: Partial<DnsMessage> = {}): DnsMessage {
  return {
    id: 0x1234,
    qr: false,
    opcode: 0,
    aa: false,
    tc: false,
    rd: true,
    ra: false,
    z: 0,
    rcode: 0,
    questions: [{ name, type, class: 'IN' }],
    answers: [],
    authorities: [],
    additionals: [],
    ...extra,
  };
}

/** An EDNS OPT pseudo-record (RFC 6891) advertising `size` bytes. */
export function opt(size: number, version = 0): OptAnswer {
  return { name: '.', type: 'OPT', udpPayloadSize: size, extendedRcode: 0, ednsVersion: version, flags: 0, flag_do: false, options: [] };
}

/** Sends raw bytes over UDP; resolves with the raw answer, or undefined after `waitMs` without one. */
export function udpExchange(port: number, packet: Buffer, waitMs = 1000): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const timer = setTimeout(() => finish(undefined), waitMs);
    const finish = (answer: Buffer | undefined): void => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    socket.on('message', (msg) => finish(msg));
    socket.send(packet, port, '127.0.0.1');
  });
}

export async function udpQuery(port: number, msg: DnsMessage): Promise<{ raw: Buffer; msg: DnsMessage }> {
  const raw = await udpExchange(port, encodeMessage(msg));
  if (!raw) throw new Error('no UDP answer');
  return { raw, msg: decodeMessage(raw) };
}

/**
 * Opens a TCP connection, writes `data`, collects what comes back until the server closes, `until`
 * says enough, or `waitMs` passes.
 */
export function tcpExchange(
  port: number,
  data: Buffer,
  waitMs = 1000,
  until: (received: Buffer) => boolean = () => false,
): Promise<{ received: Buffer; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(chunks), closedByServer });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => socket.write(data));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (until(Buffer.concat(chunks))) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', (err) => (settled ? undefined : reject(err)));
  });
}

export function frame(packet: Buffer): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(packet.length, 0);
  return Buffer.concat([len, packet]);
}

/** Number of complete length-prefixed messages in `data`. */
export function frameCount(data: Buffer): number {
  let count = 0;
  let pos = 0;
  while (pos + 2 <= data.length && pos + 2 + data.readUInt16BE(pos) <= data.length) {
    pos += 2 + data.readUInt16BE(pos);
    count++;
  }
  return count;
}

/** Splits length-prefixed TCP data into messages. */
export function unframe(data: Buffer): DnsMessage[] {
  const out: DnsMessage[] = [];
  let pos = 0;
  while (pos + 2 <= data.length) {
    const size = data.readUInt16BE(pos);
    out.push(decodeMessage(data.subarray(pos + 2, pos + 2 + size)));
    pos += 2 + size;
  }
  return out;
}

export async function tcpQuery(port: number, msg: DnsMessage): Promise<DnsMessage> {
  const { received } = await tcpExchange(port, frame(encodeMessage(msg)), 2000, (r) => frameCount(r) >= 1);
  const [answer] = unframe(received);
  if (!answer) throw new Error('no TCP answer');
  return answer;
}
