/**
 * The MCP tools against a fake API (fake fetch given to createApiClient, in-memory transport): each calls
 * the right operation with the caller's key and the right body, query and headers, and answers a summary
 * plus the API's JSON; API errors come back as isError results with message, code and hint.
 */
import { textsOf, TEST_KEY, withClient } from './fake-api';
import { DMARC_FIGURES_ANSWER, dmarcPart, HEALTH_ANSWER } from '../../support/api-answers/domain-health';
import {
  DOMAIN_LIST_ANSWER,
  MTA_STS_ACTIVE_ANSWER,
  MTA_STS_DELETED_ANSWER,
  MTA_STS_NOT_FOUND_ANSWER,
  MTA_STS_NOT_RECEIVING_ANSWER,
  MTA_STS_PENDING_ANSWER,
} from '../../support/api-answers/mta-sts';
import {
  LINK_DOMAIN_ACTIVE_ANSWER,
  LINK_DOMAIN_DELETED_ANSWER,
  LINK_DOMAIN_NOT_FOUND_ANSWER,
  LINK_DOMAIN_NOT_VERIFIED_ANSWER,
  LINK_DOMAIN_REQUESTED_ANSWER,
  LINK_DOMAIN_SERVED_ANSWER,
} from '../../support/api-answers/link-domain';

const EMAIL = {
  object: 'email',
  id: 'msg_01',
  from: 'a@sandbox.mailservice.dev',
  to: ['ann@example.com'],
  subject: 'Hello',
  status: 'bounced',
  last_event: 'bounced',
  bounce_type: 'Permanent',
  bounce_reason: 'mailbox does not exist',
  created_at: '2026-01-01T10:00:00.000Z',
  sent_at: '2026-01-01T10:00:01.000Z',
  delivered_at: null,
  bounced_at: '2026-01-01T10:00:03.000Z',
};

const DOMAIN = {
  object: 'domain',
  id: 'dom_01',
  name: 'example.com',
  status: 'pending',
  records: [
    {
      purpose: 'ownership',
      type: 'TXT',
      name: '_service.example.com',
      value: 'service-verification=abc',
      required: true,
      status: 'pending',
    },
    { purpose: 'dmarc', type: 'TXT', name: '_dmarc.example.com', value: 'v=DMARC1; p=none', required: false, status: 'not_found' },
  ],
};

const VALIDATION = {
  object: 'validation',
  email: 'jane@gmial.com',
  verdict: 'risky',
  score: 0.7,
  reasons: ['possible_typo'],
  suggestion: 'jane@gmail.com',
  checks: {
    syntax: { valid: true, problem: null, smtputf8: false },
    domain: { result: 'mx', hosts: ['mx.gmial.com'] },
    disposable: false,
    role: false,
    suppressed: { suppressed: false, reason: null },
  },
};

/** The stored check without the BIMI finding: one open, one fixed. */
const HEALTH = {
  ...HEALTH_ANSWER,
  findings: HEALTH_ANSWER.findings.filter((finding) => finding.type !== 'bimi_missing'),
  summary: { ...HEALTH_ANSWER.summary, open: 1, low: 0, checks: { ...HEALTH_ANSWER.summary.checks, bimi: 'ok' } },
};

/** One day's figures and one page of one source. */
const FIGURES = {
  ...DMARC_FIGURES_ANSWER,
  until: '2026-02-01',
  totals: dmarcPart(120, 117),
  reports: 2,
  days: [
    {
      day: '2026-02-01',
      messages: 120,
      dmarc_pass: 117,
      ours: { messages: 100, dmarc_pass: 100 },
      others: { messages: 20, dmarc_pass: 17 },
    },
  ],
  sources: [{ source_ip: '198.51.100.7', group: 'others', ...dmarcPart(20, 17), reporters: ['google.com'], days: 1 }],
};

describe('MCP tools', () => {
  it('lists every tool with a description and an input schema', async () => {
    await withClient(
      () => ({ body: {} }),
      async ({ client }) => {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(
          [
            'add_domain',
            'add_suppressions',
            'create_webhook',
            'get_dmarc_figures',
            'get_domain',
            'get_domain_health',
            'get_email',
            'get_inbound_routes',
            'get_link_domain',
            'get_mta_sts_policy',
            'host_mta_sts_policy',
            'list_domains',
            'list_emails',
            'list_suppressions',
            'list_templates',
            'list_webhooks',
            'remove_suppression',
            'render_template',
            'rotate_webhook_secret',
            'send_batch',
            'send_email',
            'send_event',
            'set_inbound_routes',
            'set_up_link_domain',
            'stop_link_domain',
            'stop_mta_sts_policy',
            'validate_email',
            'verify_domain',
          ].sort(),
        );
        for (const tool of tools) {
          expect(tool.description!.length).toBeGreaterThan(40);
          expect(tool.inputSchema.type).toBe('object');
        }
        const send = tools.find((tool) => tool.name === 'send_email')!;
        expect(send.inputSchema.required).toEqual(['to']);
        expect(Object.keys(send.inputSchema.properties!)).toEqual(
          expect.arrayContaining([
            'from',
            'to',
            'subject',
            'html',
            'text',
            'cc',
            'bcc',
            'reply_to',
            'tags',
            'headers',
            'scheduled_at',
            'category',
            'attachments',
            'tenant',
            'template',
            'unsubscribe',
            'idempotency_key',
          ]),
        );
      },
    );
  });

  it('send_email posts the fields to POST /emails with the key and the Idempotency-Key, and answers the id', async () => {
    await withClient(
      () => ({ body: { id: 'msg_01', status: 'queued' } }),
      async ({ call, requests }) => {
        const result = await call('send_email', {
          from: 'a@sandbox.mailservice.dev',
          to: 'ann@example.com',
          subject: 'Hi',
          text: 'hello',
          tags: [{ name: 'k', value: 'v' }],
          idempotency_key: 'order-1',
        });
        expect(result.isError).toBeFalsy();
        expect(requests).toHaveLength(1);
        expect(requests[0]).toMatchObject({
          method: 'POST',
          body: {
            from: 'a@sandbox.mailservice.dev',
            to: 'ann@example.com',
            subject: 'Hi',
            text: 'hello',
            tags: [{ name: 'k', value: 'v' }],
          },
        });
        expect(requests[0]!.url.pathname).toBe('/emails');
        expect(requests[0]!.body).not.toHaveProperty('idempotency_key');
        expect(requests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
        expect(requests[0]!.headers['idempotency-key']).toBe('order-1');
        expect(result.structuredContent).toEqual({ id: 'msg_01', status: 'queued' });
        const [summary, json] = textsOf(result);
        expect(summary).toContain('msg_01');
        expect(JSON.parse(json!)).toEqual({ id: 'msg_01', status: 'queued' });
      },
    );
  });

  it('send_email without an Idempotency-Key sends none', async () => {
    await withClient(
      () => ({ body: { id: 'msg_02' } }),
      async ({ call, requests }) => {
        await call('send_email', { from: 'a@sandbox.mailservice.dev', to: ['ann@example.com'], subject: 'Hi', html: '<p>x</p>' });
        expect(requests[0]!.headers).not.toHaveProperty('idempotency-key');
      },
    );
  });

  it("returns the API's error as an isError result with its message, code, hint and fields", async () => {
    const envelope = {
      error: {
        message: 'Invalid request: to',
        code: 'validation_error',
        hint: 'Write name@example.com.',
        details: { fields: [{ field: 'to', message: '"ann@" is not a valid email address' }] },
      },
    };
    await withClient(
      () => ({ status: 400, body: envelope }),
      async ({ call }) => {
        const result = await call('send_email', { from: 'a@sandbox.mailservice.dev', to: 'ann@', subject: 'Hi', text: 'x' });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toEqual({
          error: {
            status: 400,
            message: 'Invalid request: to',
            code: 'validation_error',
            hint: 'Write name@example.com.',
            details: envelope.error.details,
          },
        });
        const [text] = textsOf(result);
        expect(text).toContain('400 validation_error: Invalid request: to');
        expect(text).toContain('Hint: Write name@example.com.');
        expect(text).toContain('- to: "ann@" is not a valid email address');
      },
    );
  });

  it('returns a 403 insufficient_scope and a 429 with Retry-After as isError results', async () => {
    let answer = 0;
    const responses = [
      {
        status: 403,
        body: {
          error: {
            message: 'This key lacks the scope',
            code: 'insufficient_scope',
            details: { required_scopes: ['domains:write'], key_scopes: ['emails:send'] },
          },
        },
      },
      { status: 429, body: { error: { message: 'Too many requests', code: 'rate_limited' } }, headers: { 'retry-after': '7' } },
    ];
    await withClient(
      () => responses[answer++]!,
      async ({ call }) => {
        const scope = await call('add_domain', { name: 'example.com' });
        expect(scope.isError).toBe(true);
        expect(scope.structuredContent).toMatchObject({
          error: { status: 403, code: 'insufficient_scope', details: { required_scopes: ['domains:write'] } },
        });
        const limited = await call('list_emails', {});
        expect(limited.isError).toBe(true);
        expect(limited.structuredContent).toMatchObject({ error: { status: 429, code: 'rate_limited', retry_after_seconds: 7 } });
        expect(textsOf(limited)[0]).toContain('Retry after 7 s.');
      },
    );
  });

  it('a 401 (no code) and an unreachable API are isError results too', async () => {
    let calls = 0;
    await withClient(
      () => {
        calls += 1;
        if (calls === 1) return { status: 401, body: { error: { message: 'Invalid API key.' } } };
        throw new TypeError('fetch failed');
      },
      async ({ call }) => {
        const unauthorized = await call('list_domains', {});
        expect(unauthorized).toMatchObject({ isError: true, structuredContent: { error: { status: 401, message: 'Invalid API key.' } } });
        const unreachable = await call('list_domains', {});
        expect(unreachable.isError).toBe(true);
        expect(textsOf(unreachable)[0]).toContain('could not be reached: fetch failed');
      },
    );
  });

  it('arguments that do not fit the schema are an isError result, and nothing is sent', async () => {
    await withClient(
      () => ({ body: {} }),
      async ({ call, requests }) => {
        const result = await call('send_email', { subject: 'no recipient' });
        expect(result.isError).toBe(true);
        expect(textsOf(result)[0]).toMatch(/to/);
        expect(requests).toHaveLength(0);
      },
    );
  });

  it('send_batch posts {emails} with x-batch-validation and the Idempotency-Key, and counts the results', async () => {
    const data = [
      { id: 'msg_1', status: 'queued' },
      { id: null, status: 'failed', error: { message: 'bad to' } },
    ];
    await withClient(
      () => ({ body: { data } }),
      async ({ call, requests }) => {
        const result = await call('send_batch', {
          emails: [
            { from: 'a@sandbox.mailservice.dev', to: 'ann@example.com', subject: 'one', text: '1' },
            { from: 'a@sandbox.mailservice.dev', to: 'bad', subject: 'two', text: '2' },
          ],
          validation: 'permissive',
          idempotency_key: 'batch-1',
        });
        expect(requests[0]).toMatchObject({
          method: 'POST',
          body: {
            emails: [
              { to: 'ann@example.com', subject: 'one' },
              { to: 'bad', subject: 'two' },
            ],
          },
        });
        expect(requests[0]!.url.pathname).toBe('/emails/batch');
        expect(requests[0]!.headers).toMatchObject({ 'x-batch-validation': 'permissive', 'idempotency-key': 'batch-1' });
        expect(textsOf(result)[0]).toBe('Batch: 1 of 2 emails accepted, 1 failed (see data[i].error).');
        expect(result.structuredContent).toEqual({ data });
      },
    );
  });

  it('get_email reads GET /emails/{id} (encoded) and answers the email with its timeline', async () => {
    await withClient(
      () => ({ body: { email: EMAIL } }),
      async ({ call, requests }) => {
        const result = await call('get_email', { id: 'msg_01' });
        expect(requests[0]!.url.pathname).toBe('/emails/msg_01');
        expect(result.structuredContent).toEqual({
          email: EMAIL,
          timeline: [
            { at: '2026-01-01T10:00:00.000Z', event: 'accepted' },
            { at: '2026-01-01T10:00:01.000Z', event: 'sent' },
            { at: '2026-01-01T10:00:03.000Z', event: 'bounced', detail: 'Permanent: mailbox does not exist' },
          ],
        });
        expect(textsOf(result)[0]).toContain(
          'Email msg_01 is bounced: a@sandbox.mailservice.dev -> ann@example.com, "Hello". Bounce: mailbox does not exist.',
        );
        await call('get_email', { id: '../domains' });
        expect(requests[1]!.url.pathname).toBe('/emails/..%2Fdomains');
      },
    );
  });

  it('list_emails passes limit, cursor and tenant and reports the next cursor', async () => {
    await withClient(
      () => ({ body: { emails: [EMAIL], has_more: true, next_cursor: 'c2' } }),
      async ({ call, requests }) => {
        const result = await call('list_emails', { limit: 10, cursor: 'c1' });
        expect(requests[0]!.url.pathname).toBe('/emails');
        expect(Object.fromEntries(requests[0]!.url.searchParams)).toEqual({ limit: '10', cursor: 'c1' });
        expect(textsOf(result)[0]).toContain('1 emails (more: cursor c2)');
        expect(result.structuredContent).toMatchObject({ has_more: true, next_cursor: 'c2' });
      },
    );
  });

  it('add_domain, get_domain and verify_domain show the DNS records to publish', async () => {
    await withClient(
      () => ({ status: 201, body: { domain: DOMAIN } }),
      async ({ call, requests }) => {
        const added = await call('add_domain', { name: 'example.com' });
        expect(requests[0]).toMatchObject({ method: 'POST', body: { name: 'example.com' } });
        expect(textsOf(added)[0]).toContain('- ownership: TXT _service.example.com = service-verification=abc (required, pending)');
        expect(textsOf(added)[0]).toContain('- dmarc: TXT _dmarc.example.com = v=DMARC1; p=none (optional, not_found)');
        await call('get_domain', { id: 'dom_01' });
        expect(requests[1]).toMatchObject({ method: 'GET' });
        expect(requests[1]!.url.pathname).toBe('/domains/dom_01');
        const verified = await call('verify_domain', { id: 'dom_01' });
        expect(requests[2]).toMatchObject({ method: 'POST', body: { action: 'verify' } });
        expect(requests[2]!.url.pathname).toBe('/domains/dom_01');
        expect(verified.structuredContent).toEqual({ domain: DOMAIN });
      },
    );
  });

  it('list_domains lists names, ids and statuses', async () => {
    await withClient(
      () => ({ body: { domains: [DOMAIN], has_more: false, next_cursor: null } }),
      async ({ call, requests }) => {
        const result = await call('list_domains', {});
        expect(requests[0]!.url.pathname).toBe('/domains');
        expect(textsOf(result)[0]).toBe('1 domains.\n- example.com (dom_01): pending');
      },
    );
  });

  it('add_suppressions sends email or emails; remove_suppression is DELETE /suppressions?email=', async () => {
    let calls = 0;
    const answers = [
      { created: ['ann@example.com'], existing: [], suppressions: [] },
      { created: ['a@example.com'], existing: ['b@example.com'], category_opt_outs: [] },
      { ok: true },
    ];
    await withClient(
      () => ({ body: answers[calls++] }),
      async ({ call, requests }) => {
        const one = await call('add_suppressions', { emails: 'ann@example.com' });
        expect(requests[0]).toMatchObject({ method: 'POST', body: { email: 'ann@example.com' } });
        expect(textsOf(one)[0]).toBe('1 added, 0 already listed.');
        const two = await call('add_suppressions', { emails: ['a@example.com', 'b@example.com'], category: 'newsletter' });
        expect(requests[1]).toMatchObject({ body: { emails: ['a@example.com', 'b@example.com'], category: 'newsletter' } });
        expect(textsOf(two)[0]).toBe('1 added, 1 already listed. Already listed: b@example.com.');
        await call('remove_suppression', { email: 'ann@example.com', tenant: 'acme' });
        expect(requests[2]!.method).toBe('DELETE');
        expect(requests[2]!.url.pathname).toBe('/suppressions');
        expect(Object.fromEntries(requests[2]!.url.searchParams)).toEqual({ email: 'ann@example.com', tenant: 'acme' });
      },
    );
  });

  it('list_suppressions shows the category opt-outs when asked for a category', async () => {
    await withClient(
      () => ({ body: { category_opt_outs: [{ email: 'ann@example.com', category: 'newsletter' }], has_more: false, next_cursor: null } }),
      async ({ call, requests }) => {
        const result = await call('list_suppressions', { category: 'newsletter' });
        expect(Object.fromEntries(requests[0]!.url.searchParams)).toEqual({ category: 'newsletter' });
        expect(textsOf(result)[0]).toBe('1 newsletter opt-outs.\n- ann@example.com opted out of newsletter');
      },
    );
  });

  it('create_webhook answers the endpoint and its secret; list_webhooks lists them', async () => {
    const webhook = { id: 'wh_1', url: 'https://example.com/hooks', events: ['email.delivered'], enabled: true };
    let calls = 0;
    await withClient(
      () =>
        calls++ === 0
          ? { status: 201, body: { webhook, secret: 'whsec_abc' } }
          : { body: { webhooks: [webhook], has_more: false, next_cursor: null } },
      async ({ call, requests }) => {
        const created = await call('create_webhook', { url: 'https://example.com/hooks', events: ['email.delivered'] });
        expect(requests[0]).toMatchObject({ method: 'POST', body: { url: 'https://example.com/hooks', events: ['email.delivered'] } });
        expect(textsOf(created)[0]).toContain('whsec_abc');
        const listed = await call('list_webhooks', {});
        expect(textsOf(listed)[0]).toBe('1 webhook endpoints.\n- wh_1 https://example.com/hooks events: email.delivered');
      },
    );
  });

  it('rotate_webhook_secret posts the overlap to the endpoint (its id encoded) and shows the new secret once with the overlap', async () => {
    const rotated = { id: 'wh_1', url: 'https://example.com/hooks', previous_secret_expires_at: '2026-11-29T12:00:00.000Z' };
    let calls = 0;
    await withClient(
      () =>
        calls++ === 0
          ? { body: { webhook: rotated, secret: 'whsec_new' } }
          : { body: { webhook: { ...rotated, previous_secret_expires_at: null }, secret: 'whsec_newer' } },
      async ({ call, requests }) => {
        const first = await call('rotate_webhook_secret', { id: 'wh_1', overlap_seconds: 3600 });
        expect(requests[0]).toMatchObject({ method: 'POST', body: { overlap_seconds: 3600 } });
        expect(requests[0]!.url.pathname).toBe('/webhooks/wh_1/secret');
        expect(textsOf(first)[0]).toBe(
          'Webhook wh_1 has a new signing secret (shown only now): whsec_new. The previous secret also signs every delivery until 2026-11-29T12:00:00.000Z.',
        );
        const second = await call('rotate_webhook_secret', { id: '../account' });
        expect(requests[1]!.url.pathname).toBe('/webhooks/..%2Faccount/secret');
        expect(requests[1]!.body).toEqual({});
        expect(textsOf(second)[0]).toContain('The previous secret no longer signs.');
        // The API's bounds, before any request: 7 days at most.
        const refused = await call('rotate_webhook_secret', { id: 'wh_1', overlap_seconds: 604_801 });
        expect(refused.isError).toBe(true);
        expect(requests).toHaveLength(2);
      },
    );
  });

  it('render_template posts the variables (and ?version=published) and shows the warnings', async () => {
    const rendered = {
      subject: 'Welcome, Ada',
      html: '<p>Hi Ada</p>',
      text: 'Hi Ada',
      warnings: [{ code: 'unknown_variable', message: 'Variable "x" is unused.' }],
    };
    await withClient(
      () => ({ body: rendered }),
      async ({ call, requests }) => {
        const result = await call('render_template', { alias: 'welcome', variables: { first_name: 'Ada', x: 1 }, version: 'published' });
        expect(requests[0]).toMatchObject({ method: 'POST', body: { variables: { first_name: 'Ada', x: 1 } } });
        expect(requests[0]!.url.pathname).toBe('/templates/welcome/render');
        expect(requests[0]!.url.searchParams.get('version')).toBe('published');
        expect(textsOf(result)[0]).toBe('Subject: Welcome, Ada\n\nHi Ada\n\n1 warnings:\n- unknown_variable: Variable "x" is unused.');
        expect(result.structuredContent).toEqual(rendered);
      },
    );
  });

  it('list_templates lists aliases and what is published', async () => {
    await withClient(
      () => ({ body: { templates: [{ alias: 'welcome', name: 'Welcome', published_version: 2 }], has_more: false, next_cursor: null } }),
      async ({ call }) => {
        const result = await call('list_templates', {});
        expect(textsOf(result)[0]).toBe('1 templates.\n- welcome "Welcome" (published v2)');
      },
    );
  });

  it('send_event posts the event to POST /events with the Idempotency-Key', async () => {
    const answer = { event: { id: 'ae_1', name: 'user.created' }, matched_automations: 1, resumed_runs: 0, cancelled_runs: 0 };
    await withClient(
      () => ({ status: 202, body: answer }),
      async ({ call, requests }) => {
        const result = await call('send_event', {
          name: 'user.created',
          user_id: '42',
          data: { plan: 'pro' },
          idempotency_key: 'signup-42',
        });
        expect(requests[0]).toMatchObject({
          method: 'POST',
          body: { name: 'user.created', user_id: '42', data: { plan: 'pro' } },
          headers: { 'idempotency-key': 'signup-42' },
        });
        expect(requests[0]!.url.pathname).toBe('/events');
        expect(textsOf(result)[0]).toBe('Event ae_1 (user.created) accepted: 1 automations started, 0 runs resumed, 0 cancelled.');
      },
    );
  });

  it('validate_email checks one address with POST /validations (and the tenant) and answers its verdict', async () => {
    await withClient(
      () => ({ body: VALIDATION }),
      async ({ call, requests }) => {
        const result = await call('validate_email', { emails: 'jane@gmial.com', tenant: 'acme' });
        expect(result.isError).toBeFalsy();
        expect(requests).toHaveLength(1);
        expect(requests[0]).toMatchObject({ method: 'POST', body: { email: 'jane@gmial.com', tenant: 'acme' } });
        expect(requests[0]!.url.pathname).toBe('/validations');
        expect(textsOf(result)[0]).toBe('jane@gmial.com: risky (score 0.7): possible_typo; did you mean jane@gmail.com?');
        expect(result.structuredContent).toEqual(VALIDATION);
      },
    );
  });

  it('validate_email checks a list with POST /validations/batch and counts the verdicts', async () => {
    const invalid = {
      ...VALIDATION,
      email: 'info@nowhere.example',
      verdict: 'invalid',
      score: 0.05,
      reasons: ['no_mail_host', 'role_address'],
      suggestion: null,
    };
    const valid = { ...VALIDATION, email: 'ann@example.com', verdict: 'valid', score: 1, reasons: [], suggestion: null };
    await withClient(
      () => ({ body: { validations: [VALIDATION, invalid, valid] } }),
      async ({ call, requests }) => {
        const result = await call('validate_email', { emails: ['jane@gmial.com', 'info@nowhere.example', 'ann@example.com'] });
        expect(requests[0]).toMatchObject({
          method: 'POST',
          body: { emails: ['jane@gmial.com', 'info@nowhere.example', 'ann@example.com'] },
        });
        expect(requests[0]!.body).not.toHaveProperty('tenant');
        expect(requests[0]!.url.pathname).toBe('/validations/batch');
        expect(textsOf(result)[0]).toBe(
          [
            '3 addresses: 1 valid, 1 risky, 1 invalid.',
            '- jane@gmial.com: risky (score 0.7): possible_typo; did you mean jane@gmail.com?',
            '- info@nowhere.example: invalid (score 0.05): no_mail_host, role_address',
            '- ann@example.com: valid (score 1)',
          ].join('\n'),
        );
        expect(result.structuredContent).toEqual({ validations: [VALIDATION, invalid, valid] });
      },
    );
  });

  it('validate_email refuses more than 100 addresses without calling the API, and a 429 is an isError result', async () => {
    await withClient(
      () => ({
        status: 429,
        body: { error: { message: 'Hourly validation allowance used', code: 'rate_limited' } },
        headers: { 'retry-after': '1200' },
      }),
      async ({ call, requests }) => {
        const tooMany = await call('validate_email', { emails: Array.from({ length: 101 }, (_, i) => `a${i}@example.com`) });
        expect(tooMany.isError).toBe(true);
        expect(requests).toHaveLength(0);
        const limited = await call('validate_email', { emails: 'ann@example.com' });
        expect(limited.structuredContent).toMatchObject({ error: { status: 429, code: 'rate_limited', retry_after_seconds: 1200 } });
      },
    );
  });
  it('get_domain_health reads GET /domains/{id}/health, or POSTs with check_now, and sums up the findings with the records to publish', async () => {
    await withClient(
      () => ({ body: HEALTH }),
      async ({ call, requests, client }) => {
        const stored = await call('get_domain_health', { id: 'dom_01' });
        expect(stored.isError).toBeFalsy();
        expect(requests[0]!.method).toBe('GET');
        expect(requests[0]!.url.pathname).toBe('/domains/dom_01/health');
        expect(textsOf(stored)[0]).toBe(
          [
            'example.com (dom_01): checked 2026-03-01T10:00:00.000Z, next check 2026-03-02T10:00:00.000Z: 1 open finding (1 high, 0 low).',
            '- open high spf/spf_include_missing: The SPF record does not include ours. Publish: TXT example.com v=spf1 include:amazonses.com ~all',
            '- fixed high dmarc/dmarc_missing: No DMARC record.',
          ].join('\n'),
        );
        expect(stored.structuredContent).toEqual(HEALTH);
        await call('get_domain_health', { id: 'dom_01', check_now: true });
        expect(requests[1]!.method).toBe('POST');
        expect(requests[1]!.url.pathname).toBe('/domains/dom_01/health');
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'get_domain_health')!.annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
        });
        expect(tools.find((tool) => tool.name === 'get_dmarc_figures')!.annotations).toMatchObject({ readOnlyHint: true });
      },
    );
  });

  it('get_dmarc_figures reads GET /domains/{id}/dmarc with the range, group and cursor and sums up ours against others', async () => {
    await withClient(
      () => ({ body: FIGURES }),
      async ({ call, requests }) => {
        const result = await call('get_dmarc_figures', {
          id: 'dom_01',
          since: '2026-02-01',
          until: '2026-02-01',
          group: 'others',
          cursor: 'xyz',
        });
        expect(requests[0]!.method).toBe('GET');
        expect(requests[0]!.url.pathname).toBe('/domains/dom_01/dmarc');
        expect(Object.fromEntries(requests[0]!.url.searchParams)).toEqual({
          since: '2026-02-01',
          until: '2026-02-01',
          group: 'others',
          cursor: 'xyz',
        });
        expect(textsOf(result)[0]).toBe(
          [
            'example.com 2026-02-01..2026-02-01: 2 reports (google.com, yahoo.com).',
            'Totals: 120 messages, 97.5% passed DMARC.',
            'Ours: 100 messages, 100% passed DMARC.',
            'Others: 20 messages, 85% passed DMARC.',
            'Sources (more: cursor abc):',
            '- 198.51.100.7 (others): 20 messages, 85% passed DMARC',
          ].join('\n'),
        );
        expect(result.structuredContent).toEqual(FIGURES);
        await call('get_dmarc_figures', { id: 'dom_01' });
        expect([...requests[1]!.url.searchParams.keys()]).toEqual([]);
      },
    );
  });

  it('get_dmarc_figures refuses a day that is not YYYY-MM-DD without calling the API, and a 404 is an isError result', async () => {
    await withClient(
      () => ({ status: 404, body: { error: { message: 'Domain not found', code: 'not_found' } } }),
      async ({ call, requests }) => {
        const bad = await call('get_dmarc_figures', { id: 'dom_01', since: '1/2/2026' });
        expect(bad.isError).toBe(true);
        expect(requests).toHaveLength(0);
        const missing = await call('get_domain_health', { id: 'dom_nope' });
        expect(missing.structuredContent).toMatchObject({ error: { status: 404, code: 'not_found' } });
      },
    );
  });

  it('get_mta_sts_policy looks a name up, reads GET /domains/{id}/mta-sts and sums up the status, URL, message and each record in order', async () => {
    const answers = [{ body: DOMAIN_LIST_ANSWER }, { body: MTA_STS_PENDING_ANSWER }, { body: MTA_STS_ACTIVE_ANSWER }];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests, client }) => {
        const pending = await call('get_mta_sts_policy', { domain: 'Example.com' });
        expect(pending.isError).toBeFalsy();
        expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
          'GET /domains',
          'GET /domains/dom_01/mta-sts',
        ]);
        expect(textsOf(pending)[0]).toBe(
          [
            'MTA-STS policy of inbound.example.com (dom_01): pending_certificate, mode testing, max_age 604800 s, policy id 202603011000001.',
            'Policy URL: https://mta-sts.inbound.example.com/.well-known/mta-sts.txt',
            'Message: Publish the certificate_validation record: the certificate is issued once ACM finds it.',
            'Next check: 2026-03-01T10:01:00.000Z.',
            'Records to publish, in order:',
            '- certificate_validation (required, pending): CNAME _a1.mta-sts.inbound.example.com _b2.acm-validations.aws.',
            '- policy (required, pending): TXT _mta-sts.inbound.example.com v=STSv1; id=202603011000001.',
            '- tls_rpt (recommended, pending): TXT _smtp._tls.inbound.example.com v=TLSRPTv1; rua=mailto:tls-reports@inbound.example.com.',
          ].join('\n'),
        );
        expect(pending.structuredContent).toEqual(MTA_STS_PENDING_ANSWER);
        const active = await call('get_mta_sts_policy', { domain: 'dom_01' });
        expect(requests[2]!.url.pathname).toBe('/domains/dom_01/mta-sts');
        expect(textsOf(active)[0]).not.toContain('Message:');
        expect(textsOf(active)[0]).toContain(
          '\n- policy_host (required, verified): CNAME mta-sts.inbound.example.com d-abc123.execute-api.eu-west-1.amazonaws.com. Found: d-abc123.execute-api.eu-west-1.amazonaws.com.\n',
        );
        const { tools } = await client.listTools();
        const get = tools.find((tool) => tool.name === 'get_mta_sts_policy')!;
        expect(get.annotations).toMatchObject({ readOnlyHint: true });
        for (const purpose of ['certificate_validation', 'policy_host', 'policy', 'tls_rpt'])
          expect(get.description).toContain(`${purpose}: `);
      },
    );
  });

  it('host_mta_sts_policy PUTs {mode, max_age} to /domains/{id}/mta-sts and answers the policy; it writes but destroys nothing', async () => {
    await withClient(
      () => ({ body: MTA_STS_ACTIVE_ANSWER }),
      async ({ call, requests, client }) => {
        const changed = await call('host_mta_sts_policy', { domain: 'dom_01', mode: 'enforce', max_age: 86400 });
        expect(changed.isError).toBeFalsy();
        expect(requests[0]!.method).toBe('PUT');
        expect(requests[0]!.url.pathname).toBe('/domains/dom_01/mta-sts');
        expect(requests[0]!.body).toEqual({ mode: 'enforce', max_age: 86400 });
        expect(textsOf(changed)[0]).toMatch(/^MTA-STS policy of inbound\.example\.com \(dom_01\): active, mode enforce, max_age 86400 s/);
        expect(changed.structuredContent).toEqual(MTA_STS_ACTIVE_ANSWER);
        await call('host_mta_sts_policy', { domain: 'dom_01', mode: 'testing' });
        expect(requests[1]!.body).toEqual({ mode: 'testing' });
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'host_mta_sts_policy')!.annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
        });
      },
    );
  });

  it("host_mta_sts_policy refuses a bad mode or max_age without calling the API; the API's 400 is an isError result with its message", async () => {
    await withClient(
      () => ({ status: 400, body: MTA_STS_NOT_RECEIVING_ANSWER }),
      async ({ call, requests }) => {
        expect((await call('host_mta_sts_policy', { domain: 'dom_01', mode: 'strict' })).isError).toBe(true);
        expect((await call('host_mta_sts_policy', { domain: 'dom_01', mode: 'testing', max_age: 3600 })).isError).toBe(true);
        expect(requests).toHaveLength(0);
        const refused = await call('host_mta_sts_policy', { domain: 'dom_01', mode: 'testing' });
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({
          error: { status: 400, code: 'validation_error', message: MTA_STS_NOT_RECEIVING_ANSWER.error.message },
        });
        expect(textsOf(refused)[0]).toContain('- domain: example.com does not receive mail');
      },
    );
  });

  it('stop_mta_sts_policy DELETEs /domains/{id}/mta-sts (destructive); a 404 after is an isError result; an unknown name is not_found before any MTA-STS call', async () => {
    const answers = [{ body: MTA_STS_DELETED_ANSWER }, { status: 404, body: MTA_STS_NOT_FOUND_ANSWER }, { body: DOMAIN_LIST_ANSWER }];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests, client }) => {
        const stopped = await call('stop_mta_sts_policy', { domain: 'dom_01' });
        expect(stopped.isError).toBeFalsy();
        expect(requests[0]!.method).toBe('DELETE');
        expect(requests[0]!.url.pathname).toBe('/domains/dom_01/mta-sts');
        expect(textsOf(stopped)[0]).toBe(
          'Stopped hosting the MTA-STS policy of dom_01: no longer served; its host and certificate are deleted within minutes.',
        );
        expect(stopped.structuredContent).toEqual(MTA_STS_DELETED_ANSWER);
        const again = await call('get_mta_sts_policy', { domain: 'dom_01' });
        expect(again.structuredContent).toMatchObject({
          error: { status: 404, code: 'not_found', message: 'MTA-STS policy dom_01 was not found.' },
        });
        const unknown = await call('stop_mta_sts_policy', { domain: 'other.example' });
        expect(unknown.isError).toBe(true);
        expect(unknown.structuredContent).toEqual({
          error: { message: 'No domain named other.example in this account (list_domains shows them).', code: 'not_found' },
        });
        expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
          'DELETE /domains/dom_01/mta-sts',
          'GET /domains/dom_01/mta-sts',
          'GET /domains',
        ]);
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'stop_mta_sts_policy')!.annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: true,
        });
      },
    );
  });

  it('get_link_domain looks a name up, reads GET /domains/{id}/link-domain and sums up the status, base URL, message and each record in order', async () => {
    const answers = [{ body: DOMAIN_LIST_ANSWER }, { body: LINK_DOMAIN_SERVED_ANSWER }, { body: LINK_DOMAIN_ACTIVE_ANSWER }];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests, client }) => {
        const served = await call('get_link_domain', { domain: 'Example.com' });
        expect(served.isError).toBeFalsy();
        expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
          'GET /domains',
          'GET /domains/dom_01/link-domain',
        ]);
        expect(textsOf(served)[0]).toBe(
          [
            'Link domain links.example.com (dom_01): pending_dns.',
            "Base URL: https://links.example.com (the domain's tracked links, pixels and unsubscribe links point there once active).",
            "Message: The link domain is served; publish the link_host CNAME (links.example.com to d-abc123.execute-api.eu-west-1.amazonaws.com) so that the domain's links use it.",
            'Next check: 2026-03-01T10:15:00.000Z.',
            'Records to publish, in order:',
            '- certificate_validation (required, verified): CNAME _a1.links.example.com _b2.acm-validations.aws.',
            '- link_host (required, pending): CNAME links.example.com d-abc123.execute-api.eu-west-1.amazonaws.com.',
          ].join('\n'),
        );
        expect(served.structuredContent).toEqual(LINK_DOMAIN_SERVED_ANSWER);
        const active = await call('get_link_domain', { domain: 'dom_01' });
        expect(requests[2]!.url.pathname).toBe('/domains/dom_01/link-domain');
        expect(textsOf(active)[0]).not.toContain('Message:');
        expect(textsOf(active)[0]).toContain(
          '\n- link_host (required, verified): CNAME links.example.com d-abc123.execute-api.eu-west-1.amazonaws.com. Found: d-abc123.execute-api.eu-west-1.amazonaws.com.',
        );
        const { tools } = await client.listTools();
        const get = tools.find((tool) => tool.name === 'get_link_domain')!;
        expect(get.annotations).toMatchObject({ readOnlyHint: true });
        for (const purpose of ['certificate_validation', 'link_host']) expect(get.description).toContain(`${purpose}: `);
      },
    );
  });

  it('set_up_link_domain PUTs /domains/{id}/link-domain with no body and answers the link domain (none to publish yet); it writes but destroys nothing', async () => {
    await withClient(
      () => ({ body: LINK_DOMAIN_REQUESTED_ANSWER }),
      async ({ call, requests, client }) => {
        const asked = await call('set_up_link_domain', { domain: 'dom_01' });
        expect(asked.isError).toBeFalsy();
        expect(requests[0]!.method).toBe('PUT');
        expect(requests[0]!.url.pathname).toBe('/domains/dom_01/link-domain');
        expect(requests[0]!.body).toBeUndefined();
        expect(textsOf(asked)[0]).toMatch(/^Link domain links\.example\.com \(dom_01\): pending_certificate\./);
        expect(textsOf(asked)[0]).toContain(
          '\nNo record to publish yet: the certificate_validation record is listed within a minute (get_link_domain).',
        );
        expect(asked.structuredContent).toEqual(LINK_DOMAIN_REQUESTED_ANSWER);
        const { tools } = await client.listTools();
        const setUp = tools.find((tool) => tool.name === 'set_up_link_domain')!;
        expect(Object.keys(setUp.inputSchema.properties!)).toEqual(['domain']);
        expect(setUp.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
      },
    );
  });

  it("set_up_link_domain: the API's 400 (domain not verified) is an isError result with its message and field", async () => {
    await withClient(
      () => ({ status: 400, body: LINK_DOMAIN_NOT_VERIFIED_ANSWER }),
      async ({ call }) => {
        const refused = await call('set_up_link_domain', { domain: 'dom_01' });
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({
          error: { status: 400, code: 'validation_error', message: LINK_DOMAIN_NOT_VERIFIED_ANSWER.error.message },
        });
        expect(textsOf(refused)[0]).toContain('- domain: example.com is not verified yet');
      },
    );
  });

  it('stop_link_domain DELETEs /domains/{id}/link-domain (destructive); a 404 after is an isError result; an unknown name is not_found before any link domain call', async () => {
    const answers = [
      { body: LINK_DOMAIN_DELETED_ANSWER },
      { status: 404, body: LINK_DOMAIN_NOT_FOUND_ANSWER },
      { body: DOMAIN_LIST_ANSWER },
    ];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests, client }) => {
        const stopped = await call('stop_link_domain', { domain: 'dom_01' });
        expect(stopped.isError).toBeFalsy();
        expect(requests[0]!.method).toBe('DELETE');
        expect(requests[0]!.url.pathname).toBe('/domains/dom_01/link-domain');
        expect(textsOf(stopped)[0]).toBe(
          "Stopped the link domain of dom_01: its emails link to the service's link host again; the host's certificate and custom domain name are deleted within minutes.",
        );
        expect(stopped.structuredContent).toEqual(LINK_DOMAIN_DELETED_ANSWER);
        const again = await call('get_link_domain', { domain: 'dom_01' });
        expect(again.structuredContent).toMatchObject({
          error: { status: 404, code: 'not_found', message: 'Link domain dom_01 was not found.' },
        });
        const unknown = await call('stop_link_domain', { domain: 'other.example' });
        expect(unknown.isError).toBe(true);
        expect(unknown.structuredContent).toEqual({
          error: { message: 'No domain named other.example in this account (list_domains shows them).', code: 'not_found' },
        });
        expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
          'DELETE /domains/dom_01/link-domain',
          'GET /domains/dom_01/link-domain',
          'GET /domains',
        ]);
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'stop_link_domain')!.annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: true,
        });
      },
    );
  });
});
