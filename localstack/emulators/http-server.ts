/**
 * HTTP servers of the emulators: listening on a host and port (default 127.0.0.1, an ephemeral port) and
 * the URL clients use; and, for emulators that answer whole bodies (Route 53, Cloudflare), a server that
 * hands each request its complete body.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` listening; resolves with its URL (an IPv6 host in brackets; 0.0.0.0 as 127.0.0.1), rejects when it cannot listen. */
export async function listenHttp(server: http.Server, options: { port?: number; host?: string }): Promise<string> {
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${urlHost}:${port}`;
}

/**
 * A request's body up to `maxBytes`. Past it, the answer is `tooLarge` at once (the emulator can refuse before the
 * upload ends) and the rest of the body is read and dropped.
 */
export function readBodyUpTo(req: http.IncomingMessage, maxBytes: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      tooLarge = true;
      chunks.length = 0;
      resolve({ body: Buffer.alloc(0), tooLarge: true });
    });
    req.on('end', () => {
      if (!tooLarge) resolve({ body: Buffer.concat(chunks), tooLarge: false });
    });
    req.on('error', reject);
  });
}

/**
 * An HTTP server whose `handle` gets each request with its whole body; `stop` (idempotent) closes it and
 * its open connections.
 */
export async function serveHttp(
  options: { port?: number; host?: string },
  handle: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  const url = await listenHttp(server, options);
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
