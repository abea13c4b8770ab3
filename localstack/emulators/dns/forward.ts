/**
 * Forwarding to upstream resolvers. Upstreams are tried in order; each gets one UDP attempt (a fresh
 * socket and a random ID per query) and, when its answer comes back truncated, one TCP attempt. A
 * timeout, a malformed answer, SERVFAIL or REFUSED moves on to the next upstream. The result is the
 * first good answer, else the last answer received, else undefined (the caller answers SERVFAIL).
 */
import { randomInt } from 'node:crypto';
import * as dgram from 'node:dgram';
import * as net from 'node:net';
import { OPCODE_QUERY, RCODE } from './constants';
import type { DnsMessage } from './dns-message';
import { canonicalName } from './names';
import { formatAddress, parseUpstream, type UpstreamAddress } from './upstream';
import { decodeMessage, encodeMessage } from './wire';

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 2000;

export class Forwarder {
  private readonly upstreams: UpstreamAddress[];
  /** Ends each query still waiting (on close). */
  private readonly pending = new Set<() => void>();

  constructor(
    upstreams: string[],
    private readonly timeoutMs: number,
    private readonly log: (msg: string) => void,
  ) {
    this.upstreams = upstreams.map(parseUpstream);
  }

  get enabled(): boolean {
    return this.upstreams.length > 0;
  }

  /** Forwards a decoded query (its ID is replaced on the way out). */
  async forward(query: DnsMessage): Promise<DnsMessage | undefined> {
    let last: DnsMessage | undefined;
    for (const upstream of this.upstreams) {
      const where = formatAddress(upstream.host, upstream.port);
      try {
        const packet = encodeMessage({ ...query, id: randomInt(0x10000) });
        let answer = await this.overUdp(upstream, packet);
        if (answer.tc) answer = await this.overTcp(upstream, packet);
        if (answer.rcode !== RCODE.SERVFAIL && answer.rcode !== RCODE.REFUSED) return answer;
        last = answer;
      } catch (err) {
        this.log(`dns: upstream ${where} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return last;
  }

  /** Asks the upstreams for `name`/`type` with recursion desired. */
  resolve(name: string, type: string): Promise<DnsMessage | undefined> {
    return this.forward({
      id: 0,
      qr: false,
      opcode: OPCODE_QUERY,
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
    });
  }

  /** Ends the queries still waiting for an upstream. */
  close(): void {
    for (const abort of [...this.pending]) abort();
  }

  private overUdp(upstream: UpstreamAddress, packet: Buffer): Promise<DnsMessage> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket(upstream.family === 6 ? 'udp6' : 'udp4');
      let finished = false;
      const done = (err: Error | undefined, answer?: DnsMessage): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        this.pending.delete(abort);
        try {
          socket.close();
        } catch {
          // already closed
        }
        if (answer) resolve(answer);
        else reject(err ?? new Error('no answer'));
      };
      const abort = (): void => done(new Error('forwarder stopped'));
      this.pending.add(abort);
      const timer = setTimeout(() => done(new Error(`no UDP answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      socket.on('error', (err) => done(err));
      socket.on('message', (msg) => {
        // Anything that is not the answer to this query (wrong ID or question, garbage) is ignored.
        const answer = tryDecode(msg);
        if (answer && matches(packet, answer)) done(undefined, answer);
      });
      socket.send(packet, upstream.port, upstream.host, (err) => {
        if (err) done(err);
      });
    });
  }

  private overTcp(upstream: UpstreamAddress, packet: Buffer): Promise<DnsMessage> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: upstream.host, port: upstream.port });
      let buffered = Buffer.alloc(0);
      let finished = false;
      const done = (err: Error | undefined, answer?: DnsMessage): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        this.pending.delete(abort);
        socket.destroy();
        if (answer) resolve(answer);
        else reject(err ?? new Error('no answer'));
      };
      const abort = (): void => done(new Error('forwarder stopped'));
      this.pending.add(abort);
      const timer = setTimeout(() => done(new Error(`no TCP answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      socket.on('error', (err) => done(err));
      socket.on('close', () => done(new Error('TCP connection closed before the answer')));
      socket.on('connect', () => {
        const length = Buffer.alloc(2);
        length.writeUInt16BE(packet.length, 0);
        socket.write(Buffer.concat([length, packet]));
      });
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length < 2) return;
        const size = buffered.readUInt16BE(0);
        if (buffered.length < 2 + size) return;
        const answer = tryDecode(buffered.subarray(2, 2 + size));
        if (answer && matches(packet, answer)) done(undefined, answer);
        else done(new Error('malformed or mismatched TCP answer'));
      });
    });
  }
}

function tryDecode(buf: Buffer): DnsMessage | undefined {
  try {
    const msg = decodeMessage(buf);
    return msg.qr ? msg : undefined;
  } catch {
    return undefined;
  }
}

/** Same ID and (case-insensitively) the same question as the query we sent. */
function matches(queryPacket: Buffer, answer: DnsMessage): boolean {
  if (answer.id !== queryPacket.readUInt16BE(0)) return false;
  const q = decodeMessage(queryPacket).questions[0];
  const a = answer.questions[0];
  if (!q) return true;
  return a !== undefined && canonicalName(a.name) === canonicalName(q.name) && a.type === q.type && a.class === q.class;
}
