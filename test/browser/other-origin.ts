/**
 * Another origin of the dashboard's own site, for the browser tests' cross-origin checks: an HTTP server
 * on another port of 127.0.0.1. Browsers treat it as the same site (the port is not part of a site), so
 * they send it the dashboard's `SameSite=Lax` session cookie with its requests: the strongest place a
 * forged request can come from, short of the dashboard itself. It serves one blank page, with no
 * Content-Security-Policy of its own: the tests play its scripts (fetch, a form they build) in it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtherOrigin {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another site</title></head><body><h1>Another site</h1></body></html>';

/** Serves a blank page at every path of a new origin. */
export async function startOtherOrigin(): Promise<OtherOrigin> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
