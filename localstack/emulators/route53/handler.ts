/**
 * The HTTP front of the Route 53 emulator: each request authenticated (./request.ts), routed to its action
 * (./routes.ts), and answered as Route 53 does, `text/xml` with an `x-amzn-requestid`; a failure is
 * Route 53's error document carrying the same request id (./encode.ts), and a 5xx is logged.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorDocument, type Route53Reply } from './encode';
import { faultOf } from './errors';
import { authenticate, readXmlBody } from './request';
import { answerRequest } from './routes';
import type { Route53State } from './state';

/** The request handler for serveHttp (../http-server.ts); `accessKeys` undefined accepts any key. */
export function route53Handler(state: Route53State, accessKeys: readonly string[] | undefined) {
  return (req: IncomingMessage, raw: Buffer, res: ServerResponse): void => {
    const requestId = randomUUID();
    let reply: Route53Reply;
    try {
      const target = new URL(req.url ?? '/', 'http://route53.invalid');
      authenticate(req.headers.authorization, accessKeys);
      reply = answerRequest(state, req.method ?? 'GET', target.pathname, { query: target.searchParams, body: () => readXmlBody(raw) });
    } catch (error) {
      const fault = faultOf(error);
      if (fault.status >= 500) state.log(`route53: ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
      reply = { status: fault.status, xml: errorDocument(fault, requestId) };
    }
    res.writeHead(reply.status, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId, ...reply.headers });
    res.end(reply.xml);
  };
}
