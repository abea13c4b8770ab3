/**
 * POST /mcp: the MCP server over streamable HTTP behind the API key (docs/mcp.md). Stateless (no session
 * ids, JSON answers); its tools call this API at its configured base URL (API_BASE_URL: the stack's API
 * endpoint, never a host taken from the request's Host or X-Forwarded-* headers) with the caller's bearer
 * key (clients/mcp), so every scope, limit and rule applies as to any other caller. GET and DELETE: 405.
 */
import type { Hono } from 'hono';
import { createApiClient } from '#clients/api/client';
import { bundledDocs } from '#clients/mcp/docs/bundled';
import { createMcpServer, SERVER_INFO } from '#clients/mcp/server';
import { handleStatelessMcpRequest, methodNotAllowed } from '#clients/mcp/stateless-http';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import type { AccessServices, Platform } from '#shared/services';

export interface McpAppOptions {
  /** The API's base URL (Config.apiBaseUrl), where the tools call it. */
  apiBaseUrl: string;
  /** For tests: the fetch the tools call the API with. */
  fetch?: typeof fetch;
}

/** The bearer secret of a request createApi has already authenticated. */
function bearerKey(authorization: string | undefined): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
}

export function createMcpApp(services: Platform & AccessServices, options: McpAppOptions): Hono<ApiEnv> {
  if (!/^https?:\/\/[^/]/.test(options.apiBaseUrl))
    throw new Error(`The MCP door needs the API's base URL (API_BASE_URL, set by the stack): got "${options.apiBaseUrl}"`);
  const app = createApi(services);
  app.post('/mcp', (c) => {
    const api = createApiClient({
      baseUrl: options.apiBaseUrl,
      apiKey: bearerKey(c.req.header('authorization')),
      userAgent: `mailservice-mcp/${SERVER_INFO.version}`,
      fetch: options.fetch,
    });
    return handleStatelessMcpRequest(() => createMcpServer({ api, docs: bundledDocs }), c.req.raw);
  });
  app.get('/mcp', () => methodNotAllowed());
  app.delete('/mcp', () => methodNotAllowed());
  return app;
}
