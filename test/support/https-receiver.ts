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
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeLocalCa, type LocalCa } from '#localstack/cloud/tls/local-tls';

export type TestCa = LocalCa;

/**
 * Writes ca.pem, server-key.pem and server-cert.pem into `dir` (which must exist); `extraDnsNames` are
 * added to the server certificate (e.g. a made-up public name a test resolver maps to 127.0.0.1).
 */
export async function createTestCa(dir: string, options: { extraDnsNames?: string[] } = {}): Promise<TestCa> {
  return writeLocalCa(dir, {
    commonName: `mailservice test CA ${randomBytes(4).toString('hex')}`,
    validDays: 30,
    extraDnsNames: options.extraDnsNames,
  });
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

export async function startHttpsReceiver(options: { certFile: string; keyFile: string; respond?: Responder }): Promise<HttpsReceiver> {
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
      } catch (error) {
        // Said in the answer (the delivery log keeps it), so a test whose deliveries fail can see why.
        answer = { status: 500, body: `responder threw: ${(error as Error).message}` };
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
