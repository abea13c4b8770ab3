/**
 * One streamable-HTTP MCP request, served statelessly: a fresh server and transport per request, no
 * session id (each Lambda invocation may be a new process), JSON responses rather than SSE streams.
 * GET (the server-to-client stream) and DELETE (ending a session) do not apply to a stateless server:
 * 405, as the spec allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function handleStatelessMcpRequest(createServer: () => McpServer, request: Request): Promise<Response> {
  const server = createServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // The JSON answer is complete once handleRequest returns; nothing of this request outlives it.
    await server.close();
  }
}

/** The answer to GET and DELETE: a JSON-RPC error body (as the SDK gives), Allow: POST. */
export function methodNotAllowed(): Response {
  return new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.' },
      id: null,
    }),
    {
      status: 405,
      headers: { 'content-type': 'application/json', allow: 'POST' },
    },
  );
}
