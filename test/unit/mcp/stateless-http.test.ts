/**
 * The stateless streamable-HTTP door (clients/mcp/stateless-http.ts): a POST is answered as JSON without a
 * session id, a tool call works on a fresh server per request (no initialize needed before it), and GET and
 * DELETE are 405.
 */
import { createApiClient } from '#clients/api/client';
import { createMcpServer } from '#clients/mcp/server';
import { handleStatelessMcpRequest, methodNotAllowed } from '#clients/mcp/stateless-http';
import { fakeFetch } from './fake-api';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

function post(body: unknown): Request {
  return new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
}

describe('handleStatelessMcpRequest', () => {
  const fake = fakeFetch(() => ({ body: { domains: [], has_more: false, next_cursor: null } }));
  const newServer = () =>
    createMcpServer({ api: createApiClient({ baseUrl: 'http://api.test', apiKey: 'svc_k', fetch: fake.fetch }), docs: async () => '' });

  it('answers initialize as JSON, without a session id', async () => {
    const response = await handleStatelessMcpRequest(
      newServer,
      post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = await response.json();
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'mailservice' }, capabilities: { tools: {}, resources: {} } },
    });
  });

  it('answers a tool call on a fresh server (each request may be a new process)', async () => {
    const response = await handleStatelessMcpRequest(
      newServer,
      post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_domains', arguments: {} } }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0]!.text).toBe('0 domains.');
    expect(fake.requests.at(-1)!.url.pathname).toBe('/domains');
  });

  it('GET and DELETE: 405 with Allow: POST', async () => {
    const response = methodNotAllowed();
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });
});
