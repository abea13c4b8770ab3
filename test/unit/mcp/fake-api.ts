/**
 * A fake of our HTTP API for the MCP tools' unit tests: a fetch that records each request and answers
 * from a script, given to createApiClient, and an MCP client connected to the server over the SDK's
 * in-memory transport.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApiClient } from '#clients/api/client';
import type { DocsSource } from '#clients/mcp/docs/catalogue';
import { createMcpServer } from '#clients/mcp/server';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Responder = (request: RecordedRequest) => FakeAnswer | Promise<FakeAnswer>;

export function fakeFetch(respond: Responder): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetchImpl = (async (input: URL | string, init: RequestInit = {}) => {
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url: new URL(String(input)),
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const answer = await respond(request);
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as typeof fetch;
  return { fetch: fetchImpl, requests };
}

export const TEST_KEY = 'svc_test_key';
export const TEST_BASE_URL = 'http://api.test';

/** An MCP client talking to a server whose API is the fake. */
export async function connectedClient(respond: Responder, docs: DocsSource = async (name) => `# ${name}`) {
  const fake = fakeFetch(respond);
  const api = createApiClient({ baseUrl: TEST_BASE_URL, apiKey: TEST_KEY, fetch: fake.fetch });
  const server = createMcpServer({ api, docs });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    requests: fake.requests,
    call: async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A connected client for `run`, closed after it whatever happens. */
export async function withClient(respond: Responder, run: (session: Awaited<ReturnType<typeof connectedClient>>) => Promise<void>) {
  const session = await connectedClient(respond);
  try {
    await run(session);
  } finally {
    await session.close();
  }
}

/** The text blocks of a tool result. */
export function textsOf(result: CallToolResult): string[] {
  return result.content.filter((block): block is { type: 'text'; text: string } => block.type === 'text').map((block) => block.text);
}
