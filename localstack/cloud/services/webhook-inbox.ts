/**
 * A local HTTPS webhook receiver, so the README's first webhook works on a fresh `npm start` without any
 * public endpoint: it answers 200 to every request and keeps the last 500 of each path (5,000 in all), shown at GET /_local/webhooks
 * on the API port (`?path=/hooks` for one endpoint's; DELETE, with or without it, forgets them). Its certificate comes from a CA of its own (kept in DATA_DIR/webhook-inbox), which the
 * functions trust through WEBHOOK_CA_FILE; nothing of this exists in the AWS deployment.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cachedLocalCa } from '../tls/local-tls-cache';

export interface InboxRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  received_at: string;
  truncated?: true;
}

export interface WebhookInbox {
  /** `https://localhost:<port>/` */
  url: string;
  port: number;
  /** The CA certificate file (PEM) the functions must trust. */
  caFile: string;
  /** Newest first; only the requests to `path` (the request target as sent, query included) when given. */
  list(path?: string): InboxRequest[];
  /** Forgets every request, or only those to `path`; answers how many. */
  clear(path?: string): number;
  stop(): Promise<void>;
}

/** Requests kept per path (one endpoint's), and in all: parallel test files each read their own path. */
const KEEP = 500;
const KEEP_ALL = 5000;
/** Bytes of a request body kept (webhook payloads are a few KB); the rest is dropped and `truncated` set. */
const KEEP_BODY_BYTES = 1024 * 1024;

async function certificates(dir: string): Promise<{ caFile: string; key: string; cert: string }> {
  const { caFile, keyFile, certFile } = await cachedLocalCa(dir, { commonName: 'mailservice local webhook inbox CA', validDays: 3650 });
  return { caFile, key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
}

/** Keeps the newest KEEP requests of `path` and the newest KEEP_ALL in all (newest first). */
function forgetOldest(received: InboxRequest[], path: string): void {
  let ofPath = 0;
  for (let index = 0; index < received.length; index++) {
    if (received[index]!.path === path && ++ofPath > KEEP) received.splice(index--, 1);
  }
  received.splice(KEEP_ALL);
}

export async function startWebhookInbox(options: { dir: string; port: number; host: string }): Promise<WebhookInbox> {
  const { caFile, key, cert } = await certificates(options.dir);
  const received: InboxRequest[] = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size < KEEP_BODY_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).subarray(0, KEEP_BODY_BYTES).toString('utf8');
      received.unshift({
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        received_at: new Date().toISOString(),
        ...(size > KEEP_BODY_BYTES ? { truncated: true as const } : {}),
      });
      forgetOldest(received, req.url ?? '/');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    // The default port (3001) may be taken by another dev server: take a free one rather than fail the
    // whole stack (the start-up line and stack.json say which). A port asked for explicitly must be had.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port === 0 || process.env.WEBHOOK_INBOX_PORT) throw error;
    console.error(
      `[local-cloud] webhook inbox: port ${options.port} is in use, using a free port instead (set WEBHOOK_INBOX_PORT to choose one)`,
    );
    await listen(server, 0, options.host);
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}/`,
    port,
    caFile,
    list: (path) => received.filter((request) => path === undefined || request.path === path),
    clear: (path) => {
      const before = received.length;
      const kept = received.filter((request) => path !== undefined && request.path !== path);
      received.splice(0, received.length, ...kept);
      return before - kept.length;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: https.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** One CA bundle: the inbox's CA and, when set, the one the environment already trusts. */
export function caBundle(dir: string, inboxCaFile: string, extraCaFile: string | undefined): string {
  if (!extraCaFile) return inboxCaFile;
  const bundle = join(dir, 'ca-bundle.pem');
  writeFileSync(bundle, `${readFileSync(inboxCaFile, 'utf8').trim()}\n${readFileSync(extraCaFile, 'utf8').trim()}\n`);
  return bundle;
}
