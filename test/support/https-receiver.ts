/**
 * HTTPS webhook receivers for tests: a throwaway CA (pure JS, `selfsigned`) and a recording HTTPS server
 * on 127.0.0.1. The sender trusts the CA through `extraCaFile` / WEBHOOK_CA_FILE.
 *
 *   const ca = await createTestCa(dir);
 *   const receiver = await startHttpsReceiver(ca);
 *   // ... POST to receiver.url ...
 *   await receiver.waitForRequests(1);
 *   await receiver.close();
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TestCa {
  /** The CA certificate (PEM): what the sender trusts. */
  caFile: string;
  /** The server's private key (PEM). */
  keyFile: string;
  /** The server certificate (PEM) for localhost, 127.0.0.1 and ::1, signed by the CA. */
  certFile: string;
}

/**
 * Writes ca.pem, server-key.pem and server-cert.pem into `dir` (which must exist); `extraDnsNames` are
 * added to the server certificate (e.g. a made-up public name a test resolver maps to 127.0.0.1). RSA keys: selfsigned's
 * EC path trips over the two @peculiar/asn1-schema copies in this dependency tree.
 */
export async function createTestCa(dir: string, options: { extraDnsNames?: string[] } = {}): Promise<TestCa> {
  const notBeforeDate = new Date(Date.now() - 24 * 3600 * 1000);
  const notAfterDate = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const ca = await generate([{ name: 'commonName', value: `mailservice test CA ${randomBytes(4).toString('hex')}` }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...(options.extraDnsNames ?? []).map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  const files: TestCa = {
    caFile: join(dir, 'ca.pem'),
    keyFile: join(dir, 'server-key.pem'),
    certFile: join(dir, 'server-cert.pem'),
  };
  writeFileSync(files.caFile, ca.cert);
  writeFileSync(files.keyFile, server.private, { mode: 0o600 });
  writeFileSync(files.certFile, server.cert);
  return files;
}

export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received (UTF-8). */
  body: string;
  receivedAt: Date;
}

export interface ReceiverResponse {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait before answering; `Infinity` never answers (the connection stays open until close()). */
  delayMs?: number;
}

export type Responder = (req: IncomingMessage, body: string) => ReceiverResponse;

export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>/webhook` */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  setResponder(fn: Responder): void;
  /** Resolves once `count` requests have been received; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const defaultResponder: Responder = () => ({ status: 200, body: 'ok' });

export async function startHttpsReceiver(options: {
  certFile: string;
  keyFile: string;
  respond?: Responder;
}): Promise<HttpsReceiver> {
  const [cert, key] = await Promise.all([readFile(options.certFile), readFile(options.keyFile)]);
  let responder = options.respond ?? defaultResponder;
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();

  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, receivedAt: new Date() });
      for (const wake of waiters) wake();
      let answer: ReceiverResponse;
      try {
        answer = responder(req, body);
      } catch {
        answer = { status: 500, body: 'responder threw' };
      }
      const reply = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8', ...answer.headers });
        res.end(answer.body ?? '');
      };
      const delay = answer.delayMs ?? 0;
      if (delay === Infinity) return;
      if (delay <= 0) return reply();
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) reply();
      }, delay);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}/webhook`,
    port,
    requests,
    setResponder(fn) {
      responder = fn;
    },
    waitForRequests(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(requests.slice(0, count));
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} webhook request(s), got ${requests.length} within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
