/**
 * The local API Gateway: one HTTP server routing every API group's Lambda as the HTTP API would, plus
 * local-only pages (/health, the SES mailbox). Nothing here exists in the AWS deployment.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { API_GROUPS } from '../../infra/definitions';
import { lambdaContext, PayloadTooLarge, toApiGatewayEvent, writeLambdaResult, type ApiHandler } from './lambda-http';
import { compileRoutes, matchRoute } from './routes';

export interface LocalPages {
  health(): Promise<{ ok: boolean; components: Record<string, string> }>;
  sesMessages(): unknown[];
  sesIdentities(): unknown[];
  sesMailboxHtml(): string;
  dns: {
    list(name?: string): unknown[];
    set(body: unknown): unknown;
    remove(name: string, type?: string): number;
  };
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export function createApiServer(handlers: Record<string, ApiHandler>, pages: LocalPages, log: (message: string) => void): Server {
  const routes = compileRoutes(API_GROUPS.flatMap((group) => group.routes.map((routeKey) => ({ routeKey, target: group.name }))));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/health') {
      const health = await pages.health();
      return sendJson(res, health.ok ? 200 : 503, { status: health.ok ? 'ok' : 'starting', components: health.components });
    }
    if (method === 'GET' && url.pathname === '/_local/ses/messages') return sendJson(res, 200, { messages: pages.sesMessages() });
    if (method === 'GET' && url.pathname === '/_local/ses/identities') return sendJson(res, 200, { identities: pages.sesIdentities() });
    if (method === 'GET' && (url.pathname === '/_local/ses' || url.pathname === '/_local/ses/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages.sesMailboxHtml());
      return;
    }
    if (url.pathname === '/_local/dns/records') {
      try {
        if (method === 'GET') return sendJson(res, 200, { records: pages.dns.list(url.searchParams.get('name') ?? undefined) });
        if (method === 'PUT') return sendJson(res, 200, { record: pages.dns.set(await readJsonBody(req)) });
        if (method === 'DELETE') {
          const name = url.searchParams.get('name');
          if (!name) return sendJson(res, 400, { error: { message: 'name is required', code: 'validation_error' } });
          return sendJson(res, 200, { deleted: pages.dns.remove(name, url.searchParams.get('type') ?? undefined) });
        }
      } catch (error) {
        return sendJson(res, 400, { error: { message: (error as Error).message, code: 'validation_error' } });
      }
    }
    const match = matchRoute(routes, method, url.pathname);
    if (!match) {
      return sendJson(res, 404, { error: { message: `Route ${method} ${url.pathname} was not found.`, code: 'not_found' } });
    }
    const handler = handlers[match.target];
    if (!handler) throw new Error(`No handler loaded for group ${match.target}`);
    const event = await toApiGatewayEvent(req, match.routeKey, match.pathParameters);
    writeLambdaResult(res, await handler(event, lambdaContext(`api-${match.target}`, 29_000)));
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof PayloadTooLarge) {
        return sendJson(res, 413, { error: { message: 'Request body larger than 10 MB.', code: 'validation_error' } });
      }
      log(`api: unhandled error: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { error: { message: 'Internal error in the local API gateway.', code: 'internal_error' } });
      else res.end();
    });
  });
}
