/**
 * The MCP server (docs/mcp.md) driven by the SDK's own Client against the local cloud, over both
 * transports: stdio (`node bin/mailservice-mcp.js` with MAILSERVICE_API_KEY / MAILSERVICE_BASE_URL) and
 * streamable HTTP at POST /mcp with the bearer key. Tools are listed, an email sent through send_email is
 * delivered and read back with get_email, domains are listed, a new domain's health and DMARC figures read, a receiving domain's MTA-STS policy hosted, read and stopped, a verified domain's link domain set up, read and stopped, a suppression added, a template rendered,
 * addresses validated (from the DNS emulator's zones, with a sending key), and refusals (a key without the scope, a bad address) come back as isError results. /mcp needs a key.
 */
import { spawnSync } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { api, newAccount, stack, waitForStatus, type TestAccount } from './harness/stack';
import { publish, publishAll, uniqueDomain } from './harness/dns';

const ROOT = path.resolve(__dirname, '../..');
const SANDBOX = 'mcp@sandbox.mailservice.dev';

type Transport = 'stdio' | 'http';

async function connect(transport: Transport, key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-integration-test', version: '1.0.0' });
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(ROOT, 'bin/mailservice-mcp.js')],
        cwd: ROOT,
        env: { ...getDefaultEnvironment(), MAILSERVICE_API_KEY: key, MAILSERVICE_BASE_URL: stack().apiUrl },
        stderr: 'ignore',
      }),
    );
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack().apiUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
  }
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function summaryOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe.each<Transport>(['stdio', 'http'])('the MCP server over %s', (transport) => {
  let account: TestAccount;
  let client: Client;
  let sendOnly: Client;

  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
    const key = await api('POST', '/api-keys', { key: account.key, body: { name: 'agent', scopes: ['emails:send'] } });
    expect(key.status).toBe(201);
    [client, sendOnly] = await Promise.all([connect(transport, account.key), connect(transport, key.body.secret)]);
  });

  afterAll(async () => {
    await Promise.all([client?.close(), sendOnly?.close()]);
  });

  it('lists the tools and the docs resources', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'send_email',
        'send_batch',
        'get_email',
        'list_emails',
        'list_domains',
        'get_domain',
        'verify_domain',
        'add_domain',
        'add_suppressions',
        'remove_suppression',
        'create_webhook',
        'render_template',
        'send_event',
        'validate_email',
        'get_domain_health',
        'get_dmarc_figures',
        'get_mta_sts_policy',
        'host_mta_sts_policy',
        'stop_mta_sts_policy',
        'get_link_domain',
        'set_up_link_domain',
        'stop_link_domain',
      ]),
    );
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(['docs://api', 'docs://domains', 'docs://mcp']));
    const read = await client.readResource({ uri: 'docs://api' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('# API') });
  });

  it('sends an email with send_email, which is delivered, and reads it back with get_email', async () => {
    const sent = await call(client, 'send_email', {
      from: SANDBOX,
      to: account.email,
      subject: `mcp over ${transport}`,
      text: 'sent by an agent',
      idempotency_key: `mcp-${transport}-${account.id}`,
    });
    expect(sent.isError).toBeFalsy();
    const id = (sent.structuredContent as { id: string }).id;
    expect(id).toMatch(/^msg_/);
    expect(summaryOf(sent)).toContain(id);
    await waitForStatus(account, id, 'delivered');

    const got = await call(client, 'get_email', { id });
    expect(got.isError).toBeFalsy();
    const { email, timeline } = got.structuredContent as {
      email: { id: string; status: string; subject: string };
      timeline: { event: string }[];
    };
    expect(email).toMatchObject({ id, status: 'delivered', subject: `mcp over ${transport}` });
    expect(timeline.map((entry) => entry.event)).toEqual(expect.arrayContaining(['accepted', 'delivered']));
    expect(summaryOf(got)).toContain(`Email ${id} is delivered`);
  });

  it('lists the domains with list_domains', async () => {
    const name = uniqueDomain();
    const added = await api('POST', '/domains', { key: account.key, body: { name } });
    expect(added.status).toBe(201);
    const listed = await call(client, 'list_domains', {});
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { domains: { name: string }[] }).domains.map((domain) => domain.name)).toContain(name);
    expect(summaryOf(listed)).toContain(`${name} (${added.body.domain.id}): pending`);
  });

  it("reads a new domain's health with get_domain_health (checked now: every record missing) and its DMARC figures (zeros) with get_dmarc_figures", async () => {
    const name = uniqueDomain();
    const added = await api('POST', '/domains', { key: account.key, body: { name } });
    expect(added.status).toBe(201);
    const id: string = added.body.domain.id;
    const health = await call(client, 'get_domain_health', { id });
    expect(health.isError).toBeFalsy();
    const answer = health.structuredContent as {
      object: string;
      domain_id: string;
      findings: { type: string; status: string; record?: { type: string; name: string } }[];
      summary: { high: number };
    };
    expect(answer).toMatchObject({ object: 'domain_health', domain_id: id });
    expect(answer.findings.filter((f) => f.status === 'open').map((f) => f.type)).toEqual(
      expect.arrayContaining(['spf_missing', 'dkim_missing', 'dmarc_missing']),
    );
    expect(answer.summary.high).toBe(3);
    expect(summaryOf(health)).toContain(`${name} (${id}): checked `);
    expect(summaryOf(health)).toMatch(/- open high spf\/spf_missing: .* Publish: TXT /);
    const again = await call(client, 'get_domain_health', { id, check_now: true });
    expect(again.isError).toBeFalsy();
    expect((again.structuredContent as { checked_at: string }).checked_at >= (answer as unknown as { checked_at: string }).checked_at).toBe(
      true,
    );
    const figures = await call(client, 'get_dmarc_figures', { id });
    expect(figures.isError).toBeFalsy();
    expect(figures.structuredContent).toMatchObject({
      object: 'dmarc_figures',
      domain_id: id,
      reports: 0,
      totals: { messages: 0, pass_rate: 0 },
      sources: [],
      has_more: false,
    });
    expect(summaryOf(figures)).toContain('Totals: 0 messages, 0% passed DMARC.');
  });

  it("hosts a receiving domain's MTA-STS policy by name with host_mta_sts_policy (pending_certificate), reads it with get_mta_sts_policy, stops it with stop_mta_sts_policy (a 404 after); a sending key may not host one", async () => {
    const name = uniqueDomain();
    const added = await api('POST', '/domains', { key: account.key, body: { name, inbound_enabled: true } });
    expect(added.status).toBe(201);
    const id: string = added.body.domain.id;
    await publishAll(added.body.domain.records);
    expect((await api('POST', `/domains/${id}`, { key: account.key, body: { action: 'verify' } })).body.domain.status).toBe('verified');
    const denied = await call(sendOnly, 'host_mta_sts_policy', { domain: id, mode: 'testing' });
    expect(denied.structuredContent).toMatchObject({ error: { status: 403, code: 'insufficient_scope' } });
    const hosted = await call(client, 'host_mta_sts_policy', { domain: name, mode: 'testing' });
    expect(hosted.isError).toBeFalsy();
    expect(hosted.structuredContent).toMatchObject({
      object: 'mta_sts_hosting',
      domain_id: id,
      policy_domain: `inbound.${name}`,
      status: 'pending_certificate',
      mode: 'testing',
      max_age: 604800,
    });
    expect(summaryOf(hosted)).toContain(`MTA-STS policy of inbound.${name} (${id}): pending_certificate, mode testing, max_age 604800 s`);
    const read = await call(client, 'get_mta_sts_policy', { domain: id });
    expect(read.isError).toBeFalsy();
    const policy = read.structuredContent as { status: string; policy_id: string; records: { purpose: string }[] };
    expect(policy.status).toBe('pending_certificate');
    expect(policy.records.map((record) => record.purpose)).toEqual(expect.arrayContaining(['policy', 'tls_rpt']));
    expect(summaryOf(read)).toContain(`- policy (required, pending): TXT _mta-sts.inbound.${name} v=STSv1; id=${policy.policy_id}.`);
    const stopped = await call(client, 'stop_mta_sts_policy', { domain: name });
    expect(stopped.isError).toBeFalsy();
    expect(stopped.structuredContent).toEqual({ object: 'mta_sts_hosting', domain_id: id, deleted: true });
    const gone = await call(client, 'get_mta_sts_policy', { domain: id });
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent).toMatchObject({ error: { status: 404, code: 'not_found' } });
  });

  it("sets up a verified domain's link domain by name with set_up_link_domain (pending_certificate), reads it with get_link_domain, stops it with stop_link_domain (a 404 after); a sending key may not set one up", async () => {
    const name = uniqueDomain();
    const added = await api('POST', '/domains', { key: account.key, body: { name } });
    expect(added.status).toBe(201);
    const id: string = added.body.domain.id;
    await publishAll(added.body.domain.records);
    expect((await api('POST', `/domains/${id}`, { key: account.key, body: { action: 'verify' } })).body.domain.status).toBe('verified');
    const denied = await call(sendOnly, 'set_up_link_domain', { domain: id });
    expect(denied.structuredContent).toMatchObject({ error: { status: 403, code: 'insufficient_scope' } });
    const asked = await call(client, 'set_up_link_domain', { domain: name });
    expect(asked.isError).toBeFalsy();
    expect(asked.structuredContent).toMatchObject({
      object: 'link_domain',
      domain_id: id,
      host: `links.${name}`,
      base_url: `https://links.${name}`,
      status: 'pending_certificate',
    });
    expect(summaryOf(asked)).toContain(`Link domain links.${name} (${id}): pending_certificate.`);
    const read = await call(client, 'get_link_domain', { domain: id });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ object: 'link_domain', domain_id: id, host: `links.${name}` });
    expect(summaryOf(read)).toContain(`Base URL: https://links.${name} `);
    const stopped = await call(client, 'stop_link_domain', { domain: name });
    expect(stopped.isError).toBeFalsy();
    expect(stopped.structuredContent).toEqual({ object: 'link_domain', domain_id: id, deleted: true });
    const gone = await call(client, 'get_link_domain', { domain: id });
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent).toMatchObject({ error: { status: 404, code: 'not_found' } });
  });

  it('adds a suppression with add_suppressions', async () => {
    const address = `blocked-${transport}@example.com`;
    const added = await call(client, 'add_suppressions', { emails: address });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toMatchObject({ created: [address], existing: [] });
    const listed = await api('GET', `/suppressions?email=${encodeURIComponent(address)}`, { key: account.key });
    expect(listed.body.suppressions.map((entry: { email: string }) => entry.email)).toEqual([address]);
  });

  it('renders a template with render_template', async () => {
    const created = await api('POST', '/templates', {
      key: account.key,
      body: {
        alias: 'welcome',
        name: 'Welcome',
        subject: 'Welcome, {{name}}',
        text: 'Hi {{name}}.',
        variables: [{ key: 'name', type: 'string' }],
      },
    });
    expect(created.status).toBe(201);
    const rendered = await call(client, 'render_template', { alias: 'welcome', variables: { name: 'Ada' } });
    expect(rendered.isError).toBeFalsy();
    expect(rendered.structuredContent).toMatchObject({ subject: 'Welcome, Ada', text: 'Hi Ada.', warnings: [] });
  });

  it('validates an address and a list with validate_email (a sending key may), from the DNS emulator', async () => {
    const withMx = uniqueDomain();
    await publish(withMx, 'MX', [`10 mx.${withMx}`]);
    const one = await call(sendOnly, 'validate_email', { emails: `jane@${withMx}` });
    expect(one.isError).toBeFalsy();
    expect(one.structuredContent).toMatchObject({
      object: 'validation',
      email: `jane@${withMx}`,
      verdict: 'valid',
      score: 1,
      checks: { domain: { result: 'mx', hosts: [`mx.${withMx}`] } },
    });
    expect(summaryOf(one)).toBe(`jane@${withMx}: valid (score 1)`);

    const missing = uniqueDomain();
    const list = await call(sendOnly, 'validate_email', { emails: [`info@${withMx}`, `jane@${missing}`, 'not-an-address'] });
    expect(list.isError).toBeFalsy();
    const { validations } = list.structuredContent as { validations: { email: string; verdict: string; reasons: string[] }[] };
    expect(validations.map((v) => [v.email, v.verdict, v.reasons])).toEqual([
      [`info@${withMx}`, 'risky', ['role_address']],
      [`jane@${missing}`, 'invalid', ['no_mail_host']],
      ['not-an-address', 'invalid', ['invalid_syntax']],
    ]);
    expect(summaryOf(list)).toContain('3 addresses: 1 risky, 2 invalid.');
  });

  it('returns refusals as isError results: a key without the scope, a bad address', async () => {
    const refused = await call(sendOnly, 'add_domain', { name: uniqueDomain() });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      error: { status: 403, code: 'insufficient_scope', details: { required_scopes: expect.arrayContaining(['domains:write']) } },
    });
    expect(summaryOf(refused)).toContain('403 insufficient_scope');

    const bad = await call(sendOnly, 'send_email', { from: SANDBOX, to: 'ann@', subject: 'x', text: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      error: { status: 400, code: 'validation_error', details: { fields: [expect.objectContaining({ field: 'to' })] } },
    });
  });
});

describe('the MCP server door', () => {
  it('POST /mcp without a key is 401', async () => {
    const response = await api('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { message: expect.any(String) } });
  });

  it('GET and DELETE /mcp are 405 (a stateless server)', async () => {
    const account = await newAccount();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${stack().apiUrl}/mcp`, {
        method,
        headers: { authorization: `Bearer ${account.key}`, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('calls the API at its configured URL: a forged Host or X-Forwarded-Host never makes the service connect elsewhere', async () => {
    const account = await newAccount();
    // A decoy "API" on another loopback address: it would answer anything, and records each request it gets.
    const reached: string[] = [];
    const decoy = createServer((req: IncomingMessage, res) => {
      reached.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"domains":[{"id":"dom_decoy","name":"decoy.example"}],"has_more":false,"next_cursor":null}');
    });
    await new Promise<void>((listening) => decoy.listen(0, '127.0.0.2', listening));
    const decoyHost = `127.0.0.2:${(decoy.address() as AddressInfo).port}`;
    try {
      const api = new URL(stack().apiUrl);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_domains', arguments: {} } });
      // node:http sends the Host header as given (fetch would not let a caller forge it).
      const answer = await new Promise<{ status: number; text: string }>((resolveAnswer, reject) => {
        const req = httpRequest(
          {
            host: api.hostname,
            port: api.port,
            path: '/mcp',
            method: 'POST',
            headers: {
              host: decoyHost,
              'x-forwarded-host': decoyHost,
              'x-forwarded-proto': 'http',
              authorization: `Bearer ${account.key}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          },
          (res) => {
            let text = '';
            res
              .setEncoding('utf8')
              .on('data', (chunk: string) => (text += chunk))
              .on('end', () => resolveAnswer({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject).end(body);
      });
      expect(answer.status).toBe(200);
      const result = JSON.parse(answer.text).result as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).not.toContain('decoy');
      expect(result.structuredContent).toMatchObject({ domains: [] });
      expect(reached).toEqual([]);
    } finally {
      await new Promise((closed) => decoy.close(closed));
    }
  });

  it('the stdio server without MAILSERVICE_API_KEY says so on stderr and exits 1, printing nothing on stdout', () => {
    const env = { ...process.env };
    delete env.MAILSERVICE_API_KEY;
    const result = spawnSync(process.execPath, [path.join(ROOT, 'bin/mailservice-mcp.js')], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 30_000,
      input: '',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('MAILSERVICE_API_KEY is not set');
  });
});
