/**
 * UDP and TCP listeners on one port. UDP is bound first (on the requested port, or an ephemeral one),
 * then TCP on the same number; with an ephemeral port, a TCP EADDRINUSE closes the UDP socket and
 * starts over on a new port (up to BIND_ATTEMPTS times).
 *
 * TCP: messages are framed by a 16-bit length (RFC 1035 4.2.2; RFC 7766). Several queries may be
 * pipelined on one connection; each is answered when ready. A malformed frame closes the connection,
 * as does TCP_IDLE_TIMEOUT_MS without traffic.
 */
import * as dgram from 'node:dgram';
import { isIP } from 'node:net';
import * as net from 'node:net';
import type { Responder } from './responder';
import { formatAddress } from './upstream';

const BIND_ATTEMPTS = 5;
const TCP_IDLE_TIMEOUT_MS = 30_000;

export interface DnsListeners {
  port: number;
  close(): Promise<void>;
}

export async function listen(host: string, requestedPort: number, responder: Responder, log: (msg: string) => void): Promise<DnsListeners> {
  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(host, requestedPort);
    const port = udp.address().port;
    try {
      const tcp = await listenTcp(host, port);
      return serve(udp, tcp, port, responder, log);
    } catch (err) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!inUse || requestedPort !== 0 || attempt >= BIND_ATTEMPTS) throw err;
      log(`dns: TCP port ${port} is taken; trying another port`);
    }
  }
}

function bindUdp(host: string, port: number): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

function listenTcp(host: string, port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function serve(udp: dgram.Socket, tcp: net.Server, port: number, responder: Responder, log: (msg: string) => void): DnsListeners {
  answerUdp(udp, responder, log);
  const connections = answerTcp(tcp, responder, log);

  return {
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => tcp.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await closed;
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}

/** UDP: each datagram a query, its answer sent back to the sender (none when the responder gives none). */
function answerUdp(udp: dgram.Socket, responder: Responder, log: (msg: string) => void): void {
  udp.on('error', (err) => log(`dns: UDP socket error: ${err.message}`));
  udp.on('message', (packet, rinfo) => {
    const from = formatAddress(rinfo.address, rinfo.port);
    responder
      .handle(packet, 'udp', from)
      .then((response) => {
        if (!response) return;
        udp.send(response, rinfo.port, rinfo.address, (err) => {
          if (err) log(`dns: could not send a UDP answer to ${from}: ${err.message}`);
        });
      })
      .catch((err: unknown) => log(`dns: UDP answer to ${from} failed: ${String(err)}`));
  });
}

/** TCP: each connection's length-framed queries answered on it; returns the open connections (close() ends them). */
function answerTcp(tcp: net.Server, responder: Responder, log: (msg: string) => void): Set<net.Socket> {
  const connections = new Set<net.Socket>();
  tcp.on('error', (err) => log(`dns: TCP server error: ${err.message}`));
  tcp.on('connection', (socket) => {
    connections.add(socket);
    const from = formatAddress(socket.remoteAddress ?? '?', socket.remotePort ?? 0);
    let buffered: Buffer = Buffer.alloc(0);
    socket.setTimeout(TCP_IDLE_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', (err) => log(`dns: TCP connection from ${from}: ${err.message}`));
    socket.on('close', () => connections.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const size = buffered.readUInt16BE(0);
        if (buffered.length < 2 + size) break;
        const packet = buffered.subarray(2, 2 + size);
        buffered = buffered.subarray(2 + size);
        answerTcpQuery(socket, packet, from, responder, log);
      }
    });
  });
  return connections;
}

/** One query of a TCP connection: its answer written with its 16-bit length; no answer or a failure closes the connection. */
function answerTcpQuery(socket: net.Socket, packet: Buffer, from: string, responder: Responder, log: (msg: string) => void): void {
  responder
    .handle(packet, 'tcp', from)
    .then((response) => {
      if (!response) {
        socket.destroy();
        return;
      }
      if (socket.destroyed) return;
      const length = Buffer.alloc(2);
      length.writeUInt16BE(response.length, 0);
      socket.write(Buffer.concat([length, response]));
    })
    .catch((err: unknown) => {
      log(`dns: TCP answer to ${from} failed: ${String(err)}`);
      socket.destroy();
    });
}
