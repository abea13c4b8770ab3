/**
 * The HTTP front of the fake Cloudflare API: each request authenticated and its JSON body read
 * (./request.ts), routed to its call (./routes.ts), and answered in Cloudflare's envelope
 * (./envelope.ts, a failure's in ./errors.ts) with a `cf-ray` header; anything unexpected is 500 code 10001,
 * and logged.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CloudflareReply } from './envelope';
import { CloudflareFault, faultReply, internalErrorReply } from './errors';
import { authenticate, readJsonBody } from './request';
import { answerRequest } from './routes';
import type { CloudflareState } from './state';

/** The request handler for serveHttp (../http-server.ts), accepting `tokens`. */
export function cloudflareHandler(state: CloudflareState, tokens: readonly string[]) {
  return (req: IncomingMessage, raw: Buffer, res: ServerResponse): void => {
    let reply: CloudflareReply;
    try {
      const target = new URL(req.url ?? '/', 'http://cloudflare.invalid');
      authenticate(req.headers.authorization, tokens);
      reply = answerRequest(state, req.method ?? 'GET', target.pathname, { query: target.searchParams, body: readJsonBody(raw) });
    } catch (error) {
      if (error instanceof CloudflareFault) reply = faultReply(error);
      else {
        state.log(`cloudflare: ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
        reply = internalErrorReply();
      }
    }
    const payload = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
      'cf-ray': randomBytes(8).toString('hex'),
    });
    res.end(payload);
  };
}
