/** GET /emails (listing, per-account rate limit) and POST /emails/{id}/resend. */
import { RATE_LIMITS } from '#shared/domain/rate-limits';
import {
  api,
  emailOf,
  newAccount,
  sesMessagesFor,
  stack,
  waitFor,
  waitForStatus,
  type ApiResponse,
  type TestAccount,
} from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';
/** RATE_LIMITS.listEmails (shared/domain/rate-limits.ts): 10 per 1-second window. */
const LIMIT = 10;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the current second (the limiter's window) has just begun. */
async function startOfSecond(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 10);
}

/** GET /emails for tests about the listing itself: waits out a 429 (Retry-After) instead of failing. */
async function list(account: TestAccount, query = ''): Promise<ApiResponse> {
  for (;;) {
    const response = await api('GET', `/emails${query}`, { key: account.key });
    if (response.status !== 429) return response;
    await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000);
  }
}

async function send(account: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const response = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't', ...body },
  });
  expect(response.status).toBe(200);
  return response.body.id;
}

async function keyWithScopes(account: TestAccount, scopes: string[]): Promise<string> {
  const created = await api('POST', '/api-keys', { key: account.key, body: { name: scopes.join(' '), scopes } });
  expect(created.status).toBe(201);
  return created.body.secret;
}

describe('GET /emails', () => {
  let account: TestAccount;
  let other: TestAccount;
  /** The account's emails, oldest first. */
  const ids: string[] = [];
  let otherIds: string[] = [];

  beforeAll(async () => {
    [account, other] = await Promise.all([newAccount(), newAccount()]);
    for (let i = 0; i < 7; i++) ids.push(await send(account, { subject: `listing ${i}` }));
    otherIds = [await send(other), await send(other)];
    // The index is eventually consistent: wait until every email is listed.
    await waitFor(async () => (await list(account, '?limit=100')).body.emails?.length === 7, 'the listing to show 7 emails');
  });

  it('lists newest first across pages, with exact has_more and next_cursor', async () => {
    const newestFirst = [...ids].reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: { count: number; has_more: boolean }[] = [];
    do {
      const response = await list(account, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.status).toBe(200);
      const { emails, has_more, next_cursor } = response.body;
      expect(has_more).toBe(next_cursor !== null);
      pages.push({ count: emails.length, has_more });
      seen.push(...emails.map((email: { id: string }) => email.id));
      cursor = next_cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    expect(pages).toEqual([
      { count: 3, has_more: true },
      { count: 3, has_more: true },
      { count: 1, has_more: false },
    ]);

    // Exactly as many as exist: no more; one fewer: more.
    const all = await list(account, '?limit=7');
    expect(all.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(all.body.emails.map((email: { id: string }) => email.id)).toEqual(newestFirst);
    const six = await list(account, '?limit=6');
    expect(six.body.has_more).toBe(true);
    expect(six.body.next_cursor).toEqual(expect.any(String));
    const rest = await list(account, `?limit=6&cursor=${encodeURIComponent(six.body.next_cursor)}`);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.body.emails.map((email: { id: string }) => email.id)).toEqual([ids[0]]);
  });

  it('lists public Email records, the same as GET /emails/{id}', async () => {
    const response = await list(account, '?limit=1');
    const [listed] = response.body.emails;
    const single = await emailOf(account, listed.id);
    expect(Object.keys(listed).sort()).toEqual(Object.keys(single).sort());
    expect(listed).toMatchObject({ object: 'email', id: ids[6], subject: 'listing 6', to: [account.email], tenant: null });
    for (const internal of [
      'account_id',
      'headers',
      'provider_message_id',
      'body',
      'body_blob_key',
      'GSI1PK',
      'GSI4PK',
      'PK',
      'last_event_rank',
      'send_lease_until',
    ]) {
      expect(listed).not.toHaveProperty(internal);
    }
  });

  it('defaults to 25 per page', async () => {
    const response = await list(account);
    expect(response.status).toBe(200);
    expect(response.body.emails).toHaveLength(7);
    expect(response.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('never lists emails of other accounts', async () => {
    const mine = (await list(account, '?limit=100')).body.emails.map((email: { id: string }) => email.id);
    expect(mine.sort()).toEqual([...ids].sort());
    const theirs = (await list(other, '?limit=100')).body.emails.map((email: { id: string }) => email.id);
    expect(theirs.sort()).toEqual([...otherIds].sort());
  });

  it('refuses limits outside 1-100 and non-integers with 400', async () => {
    for (const limit of ['0', '101', 'abc', '2.5', '-1']) {
      const response = await list(account, `?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      expect(response.body.error.details.fields.map((field: { field: string }) => field.field)).toEqual(['limit']);
    }
  });

  it("refuses another account's cursor and a malformed cursor with 400", async () => {
    const theirs = await list(other, '?limit=1');
    expect(theirs.body.next_cursor).toEqual(expect.any(String));
    for (const cursor of [theirs.body.next_cursor, 'not-a-cursor', Buffer.from('{"GSI1PK":1}').toString('base64url')]) {
      const response = await list(account, `?limit=3&cursor=${encodeURIComponent(cursor)}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'validation_error', details: { fields: [{ field: 'cursor' }] } });
    }
  });

  it('answers tenant with 403 tenants_not_enabled without tenants, 404 with them (no tenant exists yet)', async () => {
    const response = await list(account, '?tenant=t1');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('tenants_not_enabled');
    const withTenants = await newAccount({ plan: 'scale', tenants: true });
    const unknown = await list(withTenants, '?tenant=t1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('needs emails:send, account:read or full', async () => {
    // An account of its own: the shared one may have used this second's listing rate limit (10/s) already.
    const own = await newAccount();
    const reader = await keyWithScopes(own, ['account:read']);
    const sender = await keyWithScopes(own, ['emails:send']);
    const domains = await keyWithScopes(own, ['domains:write']);
    expect((await api('GET', '/emails?limit=1', { key: reader })).status).toBe(200);
    expect((await api('GET', '/emails?limit=1', { key: sender })).status).toBe(200);
    const refused = await api('GET', '/emails?limit=1', { key: domains });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    expect((await api('GET', '/emails')).status).toBe(401);
  });
});

describe('GET /emails rate limit', () => {
  it('sends ratelimit-limit, ratelimit-remaining (decreasing) and ratelimit-reset', async () => {
    const account = await newAccount();
    // Three requests inside one window (one second): retried in a later window if they straddled two.
    for (let attempt = 1; ; attempt++) {
      await startOfSecond();
      const started = Date.now();
      const responses = [];
      for (let i = 0; i < 3; i++) responses.push(await api('GET', '/emails?limit=1', { key: account.key }));
      const sameWindow = Math.floor(started / 1000) === Math.floor(Date.now() / 1000);
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
        expect(response.headers.get('ratelimit-reset')).toBe('1');
        expect(response.headers.get('retry-after')).toBeNull();
      }
      if (!sameWindow && attempt < 5) continue;
      expect(sameWindow).toBe(true);
      expect(responses.map((response) => response.headers.get('ratelimit-remaining'))).toEqual([
        String(LIMIT - 1),
        String(LIMIT - 2),
        String(LIMIT - 3),
      ]);
      break;
    }
  });

  it('puts the headers on error responses of the route too', async () => {
    const account = await newAccount();
    const response = await api('GET', '/emails?limit=0', { key: account.key });
    expect(response.status).toBe(400);
    expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(response.headers.get('ratelimit-remaining')).toEqual(expect.stringMatching(/^\d+$/));
    expect(response.headers.get('ratelimit-reset')).toBe('1');
  });

  it('admits at most the limit of a burst of concurrent requests, then 429 rate_limited with Retry-After', async () => {
    const account = await newAccount();
    await api('GET', '/emails?limit=1', { key: account.key }); // warm-up, so the burst fits in one window
    // 3x the limit: even a burst straddling two windows gets 429s.
    const burst = 3 * LIMIT;
    let exact = false;
    let sawLimited = false;
    for (let attempt = 1; attempt <= 5 && !exact; attempt++) {
      await startOfSecond();
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: burst }, () => api('GET', '/emails?limit=1', { key: account.key })));
      const windows = Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
      const ok = responses.filter((response) => response.status === 200);
      const limited = responses.filter((response) => response.status === 429);
      expect(ok.length + limited.length).toBe(burst);
      // Never more than the limit in any window the burst touched.
      expect(ok.length).toBeLessThanOrEqual(LIMIT * windows);
      if (limited.length > 0) sawLimited = true;
      for (const response of limited) {
        expect(response.body.error).toMatchObject({ code: 'rate_limited', details: { limit: LIMIT, window_seconds: 1, retry_after: 1 } });
        expect(response.headers.get('retry-after')).toBe('1');
        expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
        expect(response.headers.get('ratelimit-remaining')).toBe('0');
        expect(response.headers.get('ratelimit-reset')).toBe('1');
        expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      }
      if (windows === 1) {
        // All in one window: exactly the limit admitted, each admitted request saw its own count.
        expect(ok).toHaveLength(LIMIT);
        expect(limited).toHaveLength(burst - LIMIT);
        const remaining = ok.map((response) => Number(response.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
        expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
        exact = true;
      }
    }
    expect(sawLimited).toBe(true);
    // A slow machine may never fit the burst in one second; the store-level race below is exact regardless.
    // The next window admits requests again.
    await startOfSecond();
    const after = await api('GET', '/emails?limit=1', { key: account.key });
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('is enforced by DynamoDB: 50 concurrent hits in one window admit exactly the limit', async () => {
    const { services } = stack();
    const rule = RATE_LIMITS.listEmails;
    const accountId = `acc_race_${Date.now()}`;
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => services.rateLimits.hit(accountId, 'listEmails', rule, now)));
    const admitted = decisions.filter((decision) => decision.allowed);
    expect(admitted).toHaveLength(rule.limit);
    expect(admitted.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: rule.limit }, (_, i) => i));
    expect(decisions.filter((decision) => !decision.allowed).every((decision) => decision.remaining === 0)).toBe(true);
    // The next window starts again from zero.
    const next = await services.rateLimits.hit(accountId, 'listEmails', rule, now + rule.windowSeconds * 1000);
    expect(next).toMatchObject({ allowed: true, remaining: rule.limit - 1 });
  });

  it('counts per account: one account at its limit does not limit another', async () => {
    const [busy, quiet] = await Promise.all([newAccount(), newAccount()]);
    await startOfSecond();
    await Promise.all(Array.from({ length: LIMIT + 5 }, () => api('GET', '/emails?limit=1', { key: busy.key })));
    const response = await api('GET', '/emails?limit=1', { key: quiet.key });
    expect(response.status).toBe(200);
  });
});

describe('POST /emails/{id}/resend', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('sends a new email with the same content and reports it like POST /emails', async () => {
    const originalId = await send(account, {
      from: `Acme Support <help@${SANDBOX}>`,
      to: account.email,
      cc: account.email,
      reply_to: 'replies@example.com',
      subject: 'Your receipt',
      html: '<p>Thanks for your <b>order</b></p>',
      text: 'Thanks for your order',
      headers: { 'X-Campaign': 'receipts' },
      tags: [{ name: 'kind', value: 'receipt' }],
    });
    const original = await waitForStatus(account, originalId, 'delivered');

    const resend = await api('POST', `/emails/${originalId}/resend`, { key: account.key });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ id: expect.stringMatching(/^msg_[0-9A-Z]{26}$/), status: 'sent' });
    expect(resend.body.id).not.toBe(originalId);

    const copy = await waitForStatus(account, resend.body.id, 'delivered');
    for (const field of ['from', 'to', 'cc', 'bcc', 'reply_to', 'subject', 'tags', 'tenant', 'scheduled_at']) {
      expect(copy[field]).toEqual(original[field]);
    }
    expect(copy.from).toBe(`Acme Support <help@${SANDBOX}>`);
    expect(Date.parse(copy.created_at)).toBeGreaterThanOrEqual(Date.parse(original.created_at));

    const [before] = await sesMessagesFor(originalId);
    const [after, ...more] = await sesMessagesFor(resend.body.id);
    expect(more).toHaveLength(0);
    expect(after!.to).toEqual(before!.to);
    const lines = (raw: string, name: string) =>
      raw.split('\r\n').filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    for (const header of ['From', 'To', 'Cc', 'Reply-To', 'Subject', 'X-Campaign']) {
      expect(lines(after!.raw, header)).toEqual(lines(before!.raw, header));
      expect(lines(after!.raw, header)).toHaveLength(1);
    }
    expect(lines(after!.raw, 'Subject')).toEqual(['Subject: Your receipt']);
    expect(lines(after!.raw, 'X-Campaign')).toEqual(['X-Campaign: receipts']);
    expect(after!.raw).toContain('Thanks for your order');
    expect(after!.raw).toContain('<b>order</b>');
    // It is its own message: its own Message-ID and our id header.
    expect(after!.raw).toContain(resend.body.id);
    expect(lines(after!.raw, 'Message-ID')).not.toEqual(lines(before!.raw, 'Message-ID'));

    // The original is untouched.
    expect(await emailOf(account, originalId)).toMatchObject({ id: originalId, status: 'delivered' });
  });

  it('resends a large body kept in the blob store intact', async () => {
    const big = 'y'.repeat(100 * 1024);
    const originalId = await send(account, { subject: 'big one', text: `begin-${big}-finish` });
    const resend = await api('POST', `/emails/${originalId}/resend`, { key: account.key });
    expect(resend.status).toBe(200);
    await waitForStatus(account, resend.body.id, 'delivered');
    const [message] = await sesMessagesFor(resend.body.id);
    const unfolded = message!.raw.replace(/=\r\n/g, '');
    expect(unfolded).toContain('begin-yyyy');
    expect(unfolded).toContain('y-finish');
    expect(unfolded.split('y').length - 1).toBeGreaterThanOrEqual(100 * 1024);
  });

  it("is 404 for unknown ids and for another account's email", async () => {
    const other = await newAccount();
    const theirs = await send(other);
    for (const id of [theirs, 'msg_01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'not-an-id']) {
      const response = await api('POST', `/emails/${id}/resend`, { key: account.key });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it('applies the send rules again: a recipient suppressed since is refused with 422', async () => {
    const owner = await newAccount();
    const originalId = await send(owner, { subject: 'before suppression' });
    const suppressed = await api('POST', '/suppressions', { key: owner.key, body: { email: owner.email } });
    expect(suppressed.status).toBe(201);
    const resend = await api('POST', `/emails/${originalId}/resend`, { key: owner.key });
    expect(resend.status).toBe(422);
    expect(resend.body.error).toMatchObject({ code: 'validation_error', details: { suppressed: [owner.email] } });
  });

  it('needs emails:send or full', async () => {
    const originalId = await send(account);
    const reader = await keyWithScopes(account, ['account:read']);
    const refused = await api('POST', `/emails/${originalId}/resend`, { key: reader });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    const sender = await keyWithScopes(account, ['emails:send']);
    expect((await api('POST', `/emails/${originalId}/resend`, { key: sender })).status).toBe(200);
  });
});
