/**
 * /templates over HTTP against the running local cloud: CRUD, alias uniqueness (racing creates make
 * one), drafts and publishing (races with edits never publish a mix), render previews with warnings
 * and escaping, pagination, validation envelopes, scopes, tenant keys and account isolation, and a
 * template at every limit stored, edited and published (both versions in one item).
 */
import { TEMPLATE_LIMITS } from '#shared/domain/templates/template';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let counter = 0;
const uniqueAlias = (prefix = 't') => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

const welcome = (alias: string, body: Record<string, unknown> = {}) => ({
  name: 'Welcome',
  alias,
  subject: 'Welcome, {{first_name}}',
  html: '<p>Hi {{first_name}}, your plan is {{plan}}.</p>',
  text: 'Hi {{first_name}}, your plan is {{plan}}.',
  variables: [
    { key: 'first_name', type: 'string' },
    { key: 'plan', type: 'string', fallback_value: 'free' },
  ],
  ...body,
});

async function createTemplate(account: TestAccount, body: Record<string, unknown>) {
  const response = await api('POST', '/templates', { key: account.key, body });
  expect(response.status).toBe(201);
  return response.body.template as Record<string, any> & { id: string; alias: string };
}

async function keyWith(account: TestAccount, body: Record<string, unknown>): Promise<string> {
  const response = await api('POST', '/api-keys', { key: account.key, body: { name: 'scoped', ...body } });
  expect(response.status).toBe(201);
  return response.body.secret;
}

function fieldsOf(response: { body: any }): string[] {
  return response.body.error.details.fields.map((f: { field: string }) => f.field);
}

describe('/templates', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('creates a draft (201), reads, edits, deletes it; the alias is free again', async () => {
    const alias = uniqueAlias('crud');
    const created = await api('POST', '/templates', {
      key: account.key,
      body: welcome(alias, { from: 'Acme <hello@example.com>', reply_to: 'help@example.com' }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      template: {
        object: 'template',
        id: expect.stringMatching(/^tpl_[0-9A-HJKMNP-TV-Z]{26}$/),
        alias,
        name: 'Welcome',
        subject: 'Welcome, {{first_name}}',
        html: '<p>Hi {{first_name}}, your plan is {{plan}}.</p>',
        text: 'Hi {{first_name}}, your plan is {{plan}}.',
        from: 'Acme <hello@example.com>',
        reply_to: ['help@example.com'],
        category: 'transactional',
        unsubscribe_enabled: false,
        track_opens: null,
        track_clicks: null,
        variables: [
          { key: 'first_name', type: 'string', fallback_value: null },
          { key: 'plan', type: 'string', fallback_value: 'free' },
        ],
        status: 'draft',
        published_at: null,
        has_unpublished_changes: true,
        published_version: null,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      },
    });
    expect(created.text).not.toContain('account_id');
    expect(created.text).not.toContain('revision');
    const id = created.body.template.id;

    const read = await api('GET', `/templates/${alias}`, { key: account.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const patched = await api('PATCH', `/templates/${alias}`, {
      key: account.key,
      body: { name: 'Welcome v2', text: null, from: null, category: 'product' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.template).toMatchObject({
      id,
      name: 'Welcome v2',
      text: null,
      from: null,
      category: 'product',
      unsubscribe_enabled: true,
      status: 'draft',
    });
    expect((await api('GET', `/templates/${alias}`, { key: account.key })).body).toEqual(patched.body);

    const deleted = await api('DELETE', `/templates/${alias}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    const gone = await api('GET', `/templates/${alias}`, { key: account.key });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await api('DELETE', `/templates/${alias}`, { key: account.key })).status).toBe(404);
    expect((await api('PATCH', `/templates/${alias}`, { key: account.key, body: { name: 'x' } })).status).toBe(404);
    expect((await api('POST', `/templates/${alias}/publish`, { key: account.key })).status).toBe(404);

    const again = await createTemplate(account, welcome(alias));
    expect(again.id).not.toBe(id);
  });

  it('answers 409 conflict for an alias the account already has; racing creates make exactly one', async () => {
    const alias = uniqueAlias('dup');
    await createTemplate(account, welcome(alias));
    const duplicate = await api('POST', '/templates', { key: account.key, body: welcome(alias, { name: 'Other' }) });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      error: { message: `A template with alias ${alias} already exists.`, code: 'conflict', details: { alias }, hint: expect.any(String) },
    });

    const raced = uniqueAlias('race');
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api('POST', '/templates', { key: account.key, body: welcome(raced, { name: `racer ${i}` }) })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const winner = responses.find((r) => r.status === 201)!.body.template;
    expect((await api('GET', `/templates/${raced}`, { key: account.key })).body.template.id).toBe(winner.id);
    const listed = await api('GET', '/templates?limit=100', { key: account.key });
    expect(listed.body.templates.filter((t: { alias: string }) => t.alias === raced)).toHaveLength(1);
  });

  it('publishes the draft; later edits are unpublished changes while the published version stays', async () => {
    const alias = uniqueAlias('pub');
    await createTemplate(account, welcome(alias));
    const published = await api('POST', `/templates/${alias}/publish`, { key: account.key });
    expect(published.status).toBe(200);
    expect(published.body.template).toMatchObject({
      status: 'published',
      published_version: 1,
      has_unpublished_changes: false,
      published_at: expect.stringMatching(TIMESTAMP),
    });

    const edited = await api('PATCH', `/templates/${alias}`, { key: account.key, body: { subject: 'Hello again, {{first_name}}' } });
    expect(edited.body.template).toMatchObject({
      subject: 'Hello again, {{first_name}}',
      status: 'published',
      published_version: 1,
      has_unpublished_changes: true,
    });
    const read = await api('GET', `/templates/${alias}`, { key: account.key });
    expect(read.body.template).toMatchObject({
      subject: 'Hello again, {{first_name}}',
      published_version: 1,
      has_unpublished_changes: true,
      published_at: published.body.template.published_at,
    });
    // What sends use is still version 1.
    const sent = await api('POST', `/templates/${alias}/render?version=published`, {
      key: account.key,
      body: { variables: { first_name: 'Ada' } },
    });
    expect(sent.body.subject).toBe('Welcome, Ada');

    const republished = await api('POST', `/templates/${alias}/publish`, { key: account.key });
    expect(republished.body.template).toMatchObject({ published_version: 2, has_unpublished_changes: false });
    const noop = await api('POST', `/templates/${alias}/publish`, { key: account.key });
    expect(noop.status).toBe(200);
    expect(noop.body).toEqual(republished.body);
    expect(
      (await api('POST', `/templates/${alias}/render?version=published`, { key: account.key, body: { variables: { first_name: 'Ada' } } }))
        .body.subject,
    ).toBe('Hello again, Ada');
  });

  it("getPublished (the send path's read): not_found, not_published, then the published version whatever the draft says", async () => {
    const { services } = stack();
    const alias = uniqueAlias('send');
    expect(await services.templates.getPublished(account.id, alias)).toEqual({ kind: 'not_found' });
    const created = await createTemplate(account, welcome(alias, { from: 'Acme <hello@example.com>', category: 'product' }));
    expect(await services.templates.getPublished(account.id, alias)).toEqual({ kind: 'not_published' });
    await api('POST', `/templates/${alias}/publish`, { key: account.key });
    await api('PATCH', `/templates/${alias}`, { key: account.key, body: { subject: 'Draft only', from: null } });
    expect(await services.templates.getPublished(account.id, alias)).toEqual({
      kind: 'found',
      template: {
        id: created.id,
        alias,
        version: 1,
        subject: 'Welcome, {{first_name}}',
        html: '<p>Hi {{first_name}}, your plan is {{plan}}.</p>',
        text: 'Hi {{first_name}}, your plan is {{plan}}.',
        from: 'Acme <hello@example.com>',
        reply_to: [],
        category: 'product',
        unsubscribe_enabled: true,
        track_opens: null,
        track_clicks: null,
        variables: [
          { key: 'first_name', type: 'string', fallback_value: null },
          { key: 'plan', type: 'string', fallback_value: 'free' },
        ],
      },
    });
    expect(await services.templates.getPublished((await newAccount()).id, alias)).toEqual({ kind: 'not_found' });
  });

  it('a publish racing an edit publishes one draft or the other, never a mix', async () => {
    const alias = uniqueAlias('mix');
    await createTemplate(account, { name: 'Mix', alias, subject: 'A0', html: 'A0', text: 'A0' });
    for (let round = 1; round <= 5; round++) {
      const value = `B${round}`;
      const [, publish] = await Promise.all([
        api('PATCH', `/templates/${alias}`, { key: account.key, body: { subject: value, html: value, text: value } }),
        api('POST', `/templates/${alias}/publish`, { key: account.key }),
      ]);
      expect(publish.status).toBe(200);
      const rendered = await api('POST', `/templates/${alias}/render?version=published`, { key: account.key });
      const { subject, html, text } = rendered.body;
      expect(html).toBe(subject);
      expect(text).toBe(subject);
    }
  });

  it('renders the draft with values: escaping in html, warnings for missing, undeclared, unknown and unbalanced', async () => {
    const alias = uniqueAlias('render');
    await createTemplate(account, {
      name: 'Render',
      alias,
      subject: 'Order {{order}} for {{ first_name }}',
      html: '<p>{{first_name}} {{coupon}} {{ unknown_in_html }} <a href="{{unsubscribe_url}}">u</a> {{user.name}} {{oops</p>',
      text: '{{first_name}} / {{plan}} }} {{unsubscribe_url}}',
      category: 'newsletter',
      variables: [
        { key: 'first_name', type: 'string' },
        { key: 'order', type: 'number', fallback_value: 0 },
        { key: 'plan', type: 'string', fallback_value: 'free' },
        { key: 'coupon', type: 'string' },
      ],
    });
    const response = await api('POST', `/templates/${alias}/render`, {
      key: account.key,
      body: { variables: { first_name: '<script>alert(1)</script> & "Bo"\r\nBcc: x@example.com', extra: 1, unknown_in_html: 'set' } },
    });
    expect(response.status).toBe(200);
    expect(response.body.subject).toBe('Order 0 for <script>alert(1)</script> & "Bo"  Bcc: x@example.com');
    expect(response.body.html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Bo&quot;\r\nBcc: x@example.com {{coupon}} set <a href="{{unsubscribe_url}}">u</a> {{user.name}} {{oops</p>',
    );
    expect(response.body.text).toBe('<script>alert(1)</script> & "Bo"\r\nBcc: x@example.com / free }} {{unsubscribe_url}}');
    expect(Object.keys(response.body).sort()).toEqual(['html', 'subject', 'text', 'warnings']);
    const warnings = response.body.warnings as { code: string; variable?: string; field?: string; message: string }[];
    expect(warnings.map(({ code, variable, field }) => ({ code, variable, field }))).toEqual([
      { code: 'missing_variable', variable: 'coupon', field: 'html' },
      { code: 'undeclared_variable', variable: 'unknown_in_html', field: 'html' },
      { code: 'invalid_placeholder', variable: undefined, field: 'html' },
      { code: 'unbalanced_braces', variable: undefined, field: 'html' },
      { code: 'unbalanced_braces', variable: undefined, field: 'text' },
      { code: 'unknown_variable', variable: 'extra', field: undefined },
    ]);
    for (const warning of warnings) expect(warning.message.length).toBeGreaterThan(10);

    // No body renders without values; the reserved placeholder is never reported.
    const bare = await api('POST', `/templates/${alias}/render`, { key: account.key });
    expect(bare.status).toBe(200);
    expect(
      bare.body.warnings.filter((w: { code: string }) => w.code === 'missing_variable').map((w: { variable: string }) => w.variable),
    ).toEqual(['first_name', 'coupon', 'unknown_in_html']);

    const badValues = await api('POST', `/templates/${alias}/render`, {
      key: account.key,
      body: { variables: { first_name: { a: 1 }, plan: ['x'] } },
    });
    expect(badValues.status).toBe(400);
    expect(fieldsOf(badValues)).toEqual(['variables.first_name', 'variables.plan']);
    const notPublished = await api('POST', `/templates/${alias}/render?version=published`, { key: account.key });
    expect(notPublished.status).toBe(409);
    expect(notPublished.body.error.code).toBe('conflict');
  });

  it('lists newest first without bodies, in pages (cursor bound to the account)', async () => {
    const owner = await newAccount();
    const aliases: string[] = [];
    for (let i = 0; i < 7; i++) {
      aliases.push((await createTemplate(owner, welcome(uniqueAlias(`page${i}`)))).alias);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await api('GET', `/templates${query}`, { key: owner.key });
      expect(page.status).toBe(200);
      expect(page.body.templates.length).toBeLessThanOrEqual(3);
      for (const template of page.body.templates) {
        expect(template).not.toHaveProperty('html');
        expect(template).not.toHaveProperty('text');
        expect(template).toMatchObject({ object: 'template', status: 'draft', subject: 'Welcome, {{first_name}}' });
      }
      seen.push(...page.body.templates.map((t: { alias: string }) => t.alias));
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...aliases].reverse());

    const first = await api('GET', '/templates?limit=3', { key: owner.key });
    const foreign = await api('GET', `/templates?cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: account.key });
    expect(foreign.status).toBe(400);
    expect(fieldsOf(foreign)).toEqual(['cursor']);
    const badLimit = await api('GET', '/templates?limit=101', { key: owner.key });
    expect(badLimit.status).toBe(400);
    expect(fieldsOf(badLimit)).toEqual(['limit']);
  });

  describe('validation (400 validation_error naming the fields)', () => {
    const post = (body: unknown) => api('POST', '/templates', { key: account.key, body });

    it('refuses bad fields at create', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ alias: 'Has Caps' }, ['alias']],
        [{ alias: 'x'.repeat(65) }, ['alias']],
        [{ subject: 'two\r\nlines' }, ['subject']],
        [{ html: undefined, text: undefined }, ['html']],
        [{ html: 'x'.repeat(100 * 1024 + 1) }, ['html']],
        [{ category: 'marketing' }, ['category']],
        [{ category: 'product', unsubscribe_enabled: false }, ['unsubscribe_enabled']],
        [{ variables: [{ key: 'unsubscribe_url', type: 'string' }] }, ['variables.0.key']],
        [{ variables: [{ key: 'n', type: 'number', fallback_value: 'ten' }] }, ['variables.0.fallback_value']],
        [
          {
            variables: [
              { key: 'a', type: 'string' },
              { key: 'a', type: 'string' },
            ],
          },
          ['variables.1.key'],
        ],
        [{ from: 'not an address' }, ['from']],
      ];
      for (const [change, fields] of cases) {
        const response = await post(welcome(uniqueAlias('bad'), change));
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('validation_error');
        expect(fieldsOf(response)).toEqual(fields);
      }
      const missing = await post({});
      // Each field is named; the whole-body rule (html or text) is checked once the fields are valid.
      expect(fieldsOf(missing)).toEqual(['name', 'alias', 'subject']);
      const notJson = await api('POST', '/templates', {
        key: account.key,
        rawBody: '{nope',
        headers: { 'content-type': 'application/json' },
      });
      expect(notJson.status).toBe(400);
      expect(fieldsOf(notJson)).toEqual(['(body)']);
    });

    it('refuses bad PATCHes: alias, empty body, a draft without a body, unsubscribe off for product', async () => {
      const alias = uniqueAlias('patch');
      await createTemplate(account, welcome(alias, { text: null }));
      const patch = (body: unknown) => api('PATCH', `/templates/${alias}`, { key: account.key, body });
      expect(fieldsOf(await patch({ alias: 'renamed' }))).toEqual(['alias']);
      expect((await patch({})).status).toBe(400);
      const noBody = await patch({ html: null });
      expect(noBody.status).toBe(400);
      expect(noBody.body.error.details.fields).toEqual([{ field: 'html', message: 'one of html or text is required' }]);
      await patch({ category: 'product' });
      expect(fieldsOf(await patch({ unsubscribe_enabled: false }))).toEqual(['unsubscribe_enabled']);
      // Nothing of the refused PATCHes was written.
      expect((await api('GET', `/templates/${alias}`, { key: account.key })).body.template).toMatchObject({
        html: expect.any(String),
        category: 'product',
        unsubscribe_enabled: true,
      });
    });
  });

  it('refuses a key limited to a tenant (403 forbidden) on every endpoint', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const alias = uniqueAlias('tenant');
    await createTemplate(owner, welcome(alias));
    const tenant = await createTenant(owner, {}, 'tpl');
    const key = await keyWith(owner, { scopes: ['full'], tenant: tenant.external_id });
    const calls: [string, string, unknown?][] = [
      ['POST', '/templates', welcome(uniqueAlias('t'))],
      ['POST', '/templates', { not: 'valid' }],
      ['GET', '/templates'],
      ['GET', `/templates/${alias}`],
      ['PATCH', `/templates/${alias}`, { name: 'x' }],
      ['DELETE', `/templates/${alias}`],
      ['POST', `/templates/${alias}/publish`],
      ['POST', `/templates/${alias}/render`, {}],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key, body });
      expect([method, path, response.status, response.body.error.code]).toEqual([method, path, 403, 'forbidden']);
    }
    expect((await api('GET', `/templates/${alias}`, { key: owner.key })).body.template.name).toBe('Welcome');
  });

  it('needs templates:write to write (403 insufficient_scope); account:read may read and render', async () => {
    const alias = uniqueAlias('scope');
    await createTemplate(account, welcome(alias));
    const reader = await keyWith(account, { scopes: ['account:read'] });
    const refused = await api('POST', '/templates', { key: reader, body: welcome(uniqueAlias('r')) });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scopes: ['full', 'mail:admin', 'templates:write'] },
    });
    for (const [method, path] of [
      ['PATCH', `/templates/${alias}`],
      ['DELETE', `/templates/${alias}`],
      ['POST', `/templates/${alias}/publish`],
    ] as const) {
      expect((await api(method, path, { key: reader, body: { name: 'x' } })).body.error.code).toBe('insufficient_scope');
    }
    expect((await api('GET', '/templates', { key: reader })).status).toBe(200);
    expect((await api('GET', `/templates/${alias}`, { key: reader })).status).toBe(200);
    expect((await api('POST', `/templates/${alias}/render`, { key: reader, body: {} })).status).toBe(200);

    const sender = await keyWith(account, { scopes: ['emails:send'] });
    expect((await api('GET', '/templates', { key: sender })).body.error.code).toBe('insufficient_scope');
    const writer = await keyWith(account, { scopes: ['templates:write'] });
    expect((await api('POST', '/templates', { key: writer, body: welcome(uniqueAlias('w')) })).status).toBe(201);
    expect((await api('GET', '/templates', {})).status).toBe(401);
  });

  it("answers 404 for another account's alias, and lets it use the same alias", async () => {
    const alias = uniqueAlias('mine');
    await createTemplate(account, welcome(alias));
    const other = await newAccount();
    for (const [method, path] of [
      ['GET', `/templates/${alias}`],
      ['PATCH', `/templates/${alias}`],
      ['DELETE', `/templates/${alias}`],
      ['POST', `/templates/${alias}/publish`],
      ['POST', `/templates/${alias}/render`],
    ] as const) {
      const response = await api(method, path, { key: other.key, ...(method === 'GET' ? {} : { body: { name: 'x' } }) });
      expect([method, response.status, response.body.error.code]).toEqual([method, 404, 'not_found']);
    }
    expect((await api('GET', '/templates', { key: other.key })).body.templates).toEqual([]);
    await createTemplate(other, welcome(alias));
    expect((await api('GET', `/templates/${alias}`, { key: account.key })).body.template.name).toBe('Welcome');
    expect((await api('GET', '/templates/NOT_AN_ALIAS', { key: account.key })).status).toBe(404);
  });

  it('stores, edits and publishes a template at every limit (both versions in one item)', async () => {
    const wide = (chars: number) => '€'.repeat(chars);
    const address = (i: number) => `"${wide(TEMPLATE_LIMITS.addressChars - 30)}" <r${i}@example.com>`;
    const alias = `max-${Date.now().toString(36)}`.padEnd(64, 'x');
    const body = {
      name: wide(TEMPLATE_LIMITS.nameChars),
      alias,
      subject: wide(TEMPLATE_LIMITS.subjectChars),
      html: wide(Math.floor(TEMPLATE_LIMITS.htmlBytes / 3)),
      text: wide(Math.floor(TEMPLATE_LIMITS.textBytes / 3)),
      from: address(0),
      reply_to: Array.from({ length: TEMPLATE_LIMITS.replyTo }, (_, i) => address(i + 1)),
      category: 'newsletter',
      variables: Array.from({ length: TEMPLATE_LIMITS.variables }, (_, i) => ({
        key: `v${String(i).padStart(2, '0')}${'k'.repeat(TEMPLATE_LIMITS.variableKeyChars - 3)}`,
        type: 'string',
        fallback_value: wide(TEMPLATE_LIMITS.fallbackChars),
      })),
    };
    await createTemplate(account, body);
    expect((await api('POST', `/templates/${alias}/publish`, { key: account.key })).status).toBe(200);
    const changed = {
      html: `${wide(Math.floor(TEMPLATE_LIMITS.htmlBytes / 3) - 1)}x`,
      text: `${wide(Math.floor(TEMPLATE_LIMITS.textBytes / 3) - 1)}x`,
    };
    const patched = await api('PATCH', `/templates/${alias}`, { key: account.key, body: changed });
    expect(patched.status).toBe(200);
    expect(patched.body.template).toMatchObject({ has_unpublished_changes: true, published_version: 1 });
    const republished = await api('POST', `/templates/${alias}/publish`, { key: account.key });
    expect(republished.body.template).toMatchObject({ published_version: 2, html: changed.html });
    expect((await api('DELETE', `/templates/${alias}`, { key: account.key })).status).toBe(200);
  });
});
