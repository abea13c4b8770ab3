/**
 * The local API gateway as a keep-alive client sees it: a body over the Lambda payload limit gets 413
 * with the envelope and leaves the connection usable; idle connections are kept longer than clients'
 * pools; each answer says how long the function took (Server-Timing).
 */
import { request, Agent } from 'node:http';
import { checkApiResponse } from './harness/contract';
import { newAccount, stack, type TestAccount } from './harness/stack';

function send(
  agent: Agent,
  method: string,
  path: string,
  key: string,
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; socket: unknown }> {
  const url = new URL(stack().apiUrl + path);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(body ? { 'content-length': body.length } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          checkApiResponse(method, path, {
            status: res.statusCode!,
            header: (name) => (res.headers[name.toLowerCase()] as string | undefined) ?? null,
            text,
          });
          resolve({ status: res.statusCode!, headers: res.headers, text, socket: req.socket });
        });
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('the local API gateway', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('answers a 14 MB body 413 payload_too_large and serves the next request on the same keep-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let round = 0; round < 3; round++) {
        const big = Buffer.from(
          JSON.stringify({ from: 'a@sandbox.mailservice.dev', to: account.email, subject: 's', text: 'x'.repeat(14 * 1024 * 1024) }),
        );
        const refused = await send(agent, 'POST', '/emails', account.key, big);
        expect(refused.status).toBe(413);
        expect(JSON.parse(refused.text).error).toMatchObject({
          code: 'payload_too_large',
          message: expect.stringContaining('POST /attachments'),
          details: { limit_bytes: 6 * 1024 * 1024 },
        });
        expect(refused.headers['server-timing']).toMatch(/^handler;dur=\d+\.\d$/);
        const next = await send(agent, 'GET', '/emails?limit=1', account.key);
        expect(next.status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });

  it('accepts bodies up to the Lambda payload limit (6 MB) and refuses just above it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const padding = (total: number) => {
        const base = JSON.stringify({ from: 'a@sandbox.mailservice.dev', to: account.email, subject: 's', text: '' });
        return Buffer.from(base.replace('"text":""', `"text":"${'y'.repeat(total - base.length)}"`));
      };
      expect((await send(agent, 'POST', '/emails', account.key, padding(6 * 1024 * 1024))).status).toBe(200);
      expect((await send(agent, 'POST', '/emails', account.key, padding(6 * 1024 * 1024 + 1))).status).toBe(413);
      expect((await send(agent, 'GET', '/emails?limit=1', account.key)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it("keeps idle keep-alive connections past Node's default 5 s, and reports the handler time", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(agent, 'GET', '/emails?limit=1', account.key);
      expect(first.headers['server-timing']).toMatch(/^handler;dur=\d+\.\d$/);
      expect(first.headers['keep-alive']).toMatch(/timeout=65/);
      const unknownRoute = await send(agent, 'GET', '/nowhere', account.key);
      expect([unknownRoute.status, JSON.parse(unknownRoute.text).error.code]).toEqual([404, 'not_found']);
      expect(unknownRoute.headers['server-timing']).toMatch(/^handler;dur=\d+\.\d$/);
      await new Promise((resolve) => setTimeout(resolve, 5500));
      const second = await send(agent, 'GET', '/emails?limit=1', account.key);
      expect(second.status).toBe(200);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });
});
