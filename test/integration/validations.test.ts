/**
 * Address validation against the local cloud (docs/deliverability.md, "Address validation"): the DNS
 * emulator's zones (a domain with an MX, one with only an A record, one with a null MX, one missing), a
 * suppressed address, the plan's hourly allowance answering 429, and the send's `validate: true`
 * refusing an undeliverable recipient with 422 while sending a deliverable one.
 */
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { dnsQueries, publish, uniqueDomain } from './harness/dns';
import { api, newAccount, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';

describe('address validation', () => {
  const mxDomain = uniqueDomain();
  const aOnly = uniqueDomain();
  const nullMx = uniqueDomain();
  const missing = uniqueDomain();
  let account: TestAccount;

  beforeAll(async () => {
    await publish(mxDomain, 'MX', [`10 mx1.${mxDomain}`, `20 mx2.${mxDomain}`]);
    await publish(aOnly, 'A', ['192.0.2.10']);
    await publish(nullMx, 'MX', ['0 .']);
    account = await newAccount({ email: `owner@${mxDomain}` });
  });

  it('answers one address: its verdict, score, reasons, suggestion and checks', async () => {
    const response = await api('POST', '/validations', { key: account.key, body: { email: `jane@${mxDomain}` } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'validation',
      email: `jane@${mxDomain}`,
      verdict: 'valid',
      score: 1,
      reasons: [],
      suggestion: null,
      checks: {
        syntax: { valid: true, problem: null, smtputf8: false },
        domain: { result: 'mx', hosts: [`mx1.${mxDomain}`, `mx2.${mxDomain}`] },
        disposable: false,
        role: false,
        suppressed: { suppressed: false, reason: null },
      },
    });
  });

  it("answers a batch in order from the DNS emulator's zones, the disposable list, the role list and the typo rule", async () => {
    const emails = [
      `jane@${aOnly}`,
      `jane@${nullMx}`,
      `jane@${missing}`,
      'jane@@example',
      `postmaster@${mxDomain}`,
      'jane@mailinator.com',
      'jane@gmial.com',
    ];
    const response = await api('POST', '/validations/batch', { key: account.key, body: { emails } });
    expect(response.status).toBe(200);
    const answers = response.body.validations as {
      email: string;
      verdict: string;
      reasons: string[];
      suggestion: string | null;
      checks: { domain: { result: string; hosts: string[] } };
    }[];
    expect(answers.map((a) => [a.email, a.verdict, a.checks.domain.result, a.reasons])).toEqual([
      [`jane@${aOnly}`, 'valid', 'implicit_mx', ['implicit_mx']],
      [`jane@${nullMx}`, 'invalid', 'null_mx', ['null_mx']],
      [`jane@${missing}`, 'invalid', 'no_mail_host', ['no_mail_host']],
      ['jane@@example', 'invalid', 'not_checked', ['invalid_syntax']],
      [`postmaster@${mxDomain}`, 'risky', 'mx', ['role_address']],
      // Names outside the emulator's zones are NXDOMAIN on the local cloud (no upstream).
      ['jane@mailinator.com', 'invalid', 'no_mail_host', ['no_mail_host', 'disposable_domain']],
      // gmial.com is on the disposable list too (typo domains are registered to catch mail).
      ['jane@gmial.com', 'invalid', 'no_mail_host', ['no_mail_host', 'disposable_domain', 'possible_typo']],
    ]);
    expect(answers[0]!.checks.domain.hosts).toEqual([aOnly]);
    expect(answers[6]!.suggestion).toBe('jane@gmail.com');
  });

  it("answers an address on the account's suppression list as suppressed, with the entry's reason", async () => {
    const address = `gone@${mxDomain}`;
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: address } })).status).toBe(201);
    const response = await api('POST', '/validations', { key: account.key, body: { email: address.toUpperCase() } });
    expect(response.body).toMatchObject({
      verdict: 'risky',
      reasons: ['suppressed'],
      checks: { suppressed: { suppressed: true, reason: 'manual' } },
    });
  });

  it('refuses a batch over 100 addresses (400) and a key without a suitable scope (403)', async () => {
    const tooMany = await api('POST', '/validations/batch', {
      key: account.key,
      body: { emails: Array.from({ length: 101 }, (_, i) => `u${i}@${mxDomain}`) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('validation_error');
    const created = await api('POST', '/api-keys', { key: account.key, body: { name: 'domains only', scopes: ['domains:write'] } });
    expect(created.status).toBe(201);
    const refused = await api('POST', '/validations', { key: created.body.secret, body: { email: `jane@${mxDomain}` } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
  });

  it("answers 429 with Retry-After once the plan's hourly allowance of addresses is used up (a batch counts each address)", async () => {
    const free = await newAccount({ email: `limited@${mxDomain}` });
    const first = await api('POST', '/validations/batch', {
      key: free.key,
      body: { emails: Array.from({ length: 100 }, (_, i) => `u${i}@${mxDomain}`) },
    });
    expect(first.status).toBe(200);
    expect(first.body.validations).toHaveLength(100);
    const over = await api('POST', '/validations', { key: free.key, body: { email: `jane@${mxDomain}` } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.body.error.details).toMatchObject({ limit: 100, window_seconds: 3600 });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
  });
});

describe("the send's validate: true", () => {
  it('refuses a recipient whose domain has a null MX with 422 naming it; without validate the send is accepted', async () => {
    const nullMx = uniqueDomain();
    await publish(nullMx, 'MX', ['0 .']);
    const account = await newAccount({ email: `owner@${nullMx}` });
    const body = { from: `hi@${SANDBOX}`, to: account.email, subject: 'Hello', text: 'hi' };
    const refused = await api('POST', '/emails', { key: account.key, body: { ...body, validate: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('validation_error');
    expect(refused.body.error.message).toContain(account.email);
    expect(refused.body.error.details).toEqual({
      reason: 'undeliverable_recipients',
      recipients: [{ email: account.email, reason: 'null_mx' }],
    });
    const listed = await api('GET', '/emails?limit=10', { key: account.key });
    expect(listed.body.emails).toEqual([]);
    expect((await api('POST', '/emails', { key: account.key, body })).status).toBe(200);
  });

  it('sends to a recipient whose domain has an MX', async () => {
    const mxDomain = uniqueDomain();
    await publish(mxDomain, 'MX', [`10 mx.${mxDomain}`]);
    const account = await newAccount({ email: `owner@${mxDomain}` });
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hi@${SANDBOX}`, to: account.email, subject: 'Hello', text: 'hi', validate: true },
    });
    expect(sent.status).toBe(200);
    expect(typeof sent.body.id).toBe('string');
  });
});

/**
 * The sending rules before any lookup (issue 47): a send the policy refuses makes no DNS query and counts
 * nothing against the validation allowance; a validated send counts each recipient; one request looks up
 * at most 50 distinct domains (docs/deliverability.md, "Validating at send time").
 */
describe('validate: true after the sending policy', () => {
  /** `n` addresses, each at a domain of its own under `parent` (nothing there exists). */
  const strangers = (parent: string, n: number) => Array.from({ length: n }, (_, i) => `jane@r${i}.${parent}`);

  /** Checks `n` addresses at one domain with POST /validations/batch: 200 while the allowance holds them. */
  const validateBatch = (account: TestAccount, domain: string, n: number) =>
    api('POST', '/validations/batch', { key: account.key, body: { emails: Array.from({ length: n }, (_, i) => `v${i}@${domain}`) } });

  it('a sandbox send to 20 addresses at 20 domains answers 403 recipient_not_allowed, with no DNS query and nothing counted', async () => {
    const mxDomain = uniqueDomain();
    await publish(mxDomain, 'MX', [`10 mx.${mxDomain}`]);
    const account = await newAccount({ email: `owner@${mxDomain}` });
    const parent = uniqueDomain();
    const to = strangers(parent, 20);
    const refused = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hi@${SANDBOX}`, to, subject: 'Hello', text: 'hi', validate: true },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'recipient_not_allowed', details: { reason: 'sandbox_sender' } });
    const batch = await api('POST', '/emails/batch', {
      key: account.key,
      body: { emails: to.map((address) => ({ from: `hi@${SANDBOX}`, to: address, subject: 'Hello', text: 'hi', validate: true })) },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.data.map((item: { error: { code: string } }) => item.error.code)).toEqual(to.map(() => 'recipient_not_allowed'));
    expect(await dnsQueries(parent)).toEqual([]);
    // The free plan's whole allowance (100 an hour) is still there.
    expect((await validateBatch(account, mxDomain, 100)).status).toBe(200);
  });

  it('a validated send counts each recipient against the allowance', async () => {
    const mxDomain = uniqueDomain();
    await publish(mxDomain, 'MX', [`10 mx.${mxDomain}`]);
    const account = await newAccount({ email: `owner@${mxDomain}` });
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hi@${SANDBOX}`, to: account.email, subject: 'Hello', text: 'hi', validate: true },
    });
    expect(sent.status).toBe(200);
    expect((await dnsQueries(mxDomain)).map((query) => query.type)).toContain('MX');
    // 1 of the free plan's 100 addresses an hour is spent: 100 more are refused, 99 are checked.
    const over = await validateBatch(account, mxDomain, 100);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect((await validateBatch(account, mxDomain, 99)).status).toBe(200);
  });

  it('a batch whose validated items name 51 domains is refused whole with 400 naming the bound, before any lookup', async () => {
    const mxDomain = uniqueDomain();
    await publish(mxDomain, 'MX', [`10 mx.${mxDomain}`]);
    const account = await newAccount({ email: `owner@${mxDomain}` });
    const parent = uniqueDomain();
    const emails = strangers(parent, 51).map((address) => ({
      from: `hi@${SANDBOX}`,
      to: [account.email, address],
      subject: 'Hello',
      text: 'hi',
      validate: true,
    }));
    const refused = await api('POST', '/emails/batch', { key: account.key, body: { emails } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'validation_error',
      details: { reason: 'too_many_lookup_domains', limit: 50, domains: 52 },
    });
    expect(refused.body.error.message).toContain('at most 50 distinct recipient domains');
    expect(await dnsQueries(parent)).toEqual([]);
    expect((await api('GET', '/emails?limit=10', { key: account.key })).body.emails).toEqual([]);
  });
});

describe('the dashboard', () => {
  it("validates on the dashboard's Validate addresses page: each address as text, with its verdict", async () => {
    const mxDomain = uniqueDomain();
    const nullMx = uniqueDomain();
    await publish(mxDomain, 'MX', [`10 mx1.${mxDomain}`]);
    await publish(nullMx, 'MX', ['0 .']);
    const { email } = await newDashboardUser(await newAccount());
    const session = await signIn(email);
    const form = await dashboardRequest('GET', '/dashboard/validations', { cookie: session.cookie });
    expect(form.status).toBe(200);
    expect(form.text).toContain('<textarea');
    const emails = [`jane@${mxDomain}`, `jane@${nullMx}`, '<b>x</b>@example'].join('\n');
    const answer = await dashboardRequest('POST', '/dashboard/validations', {
      cookie: session.cookie,
      rawBody: new URLSearchParams({ emails, csrf_token: session.csrf }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Checked 3 addresses: 1 valid, 0 risky, 2 invalid.');
    expect(answer.text).toContain(`<td><code>jane@${nullMx}</code></td><td><span class="status bad">invalid</span></td>`);
    expect(answer.text).toContain('null_mx');
    expect(answer.text).toContain('&lt;b&gt;x&lt;/b&gt;@example');
    expect(answer.text).not.toContain('<b>x</b>');
    // 101 addresses: the batch's bound, as the API's, said on the page.
    const tooMany = await dashboardRequest('POST', '/dashboard/validations', {
      cookie: session.cookie,
      rawBody: new URLSearchParams({
        emails: Array.from({ length: 101 }, (_, i) => `a${i}@${mxDomain}`).join('\n'),
        csrf_token: session.csrf,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(tooMany.status).toBe(200);
    expect(tooMany.text).toContain('emails holds at most 100 addresses');
  });
});
