/** Idempotency-Key on POST /emails and POST /emails/batch, and the batch contract. */
import { randomUUID } from 'node:crypto';
import { api, newAccount, sesMessagesFor, waitFor, type TestAccount } from './harness/stack';
import { verifiedDomain } from './harness/domains';

const SANDBOX = 'sandbox.mailservice.dev';

describe('Idempotency-Key on POST /emails', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
  });
  const send = (key: string, subject = 'idem') =>
    api('POST', '/emails', {
      key: account.key,
      headers: { 'Idempotency-Key': key },
      body: { from: `a@${SANDBOX}`, to: account.email, subject, text: 't' },
    });

  it('replays the original response for the same key and body', async () => {
    const key = randomUUID();
    const first = await send(key);
    const second = await send(key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    await waitFor(
      async () => (await api('GET', `/emails/${first.body.id}`, { key: account.key })).body.email.status === 'delivered',
      'delivered',
    );
    expect(await sesMessagesFor(first.body.id)).toHaveLength(1);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    const key = randomUUID();
    expect((await send(key, 'one')).status).toBe(200);
    const other = await send(key, 'two');
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
  });

  it('treats key order in the body as the same body', async () => {
    const key = randomUUID();
    const a = await api('POST', '/emails', {
      key: account.key,
      headers: { 'Idempotency-Key': key },
      rawBody: JSON.stringify({ from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't' }),
    });
    const b = await api('POST', '/emails', {
      key: account.key,
      headers: { 'Idempotency-Key': key, 'content-type': 'application/json' },
      rawBody: JSON.stringify({ text: 't', subject: 's', to: account.email, from: `a@${SANDBOX}` }),
    });
    expect(b.body).toEqual(a.body);
  });

  it('creates exactly one email for concurrent requests with one key', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => send(key, 'race')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = new Set(results.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const list = await api('GET', '/emails?limit=100', { key: account.key });
    expect(list.body.emails.filter((e: { subject: string }) => e.subject === 'race')).toHaveLength(1);
  });

  it('scopes keys per account and validates them', async () => {
    const key = randomUUID();
    const other = await newAccount();
    const mine = await send(key);
    const theirs = await api('POST', '/emails', {
      key: other.key,
      headers: { 'Idempotency-Key': key },
      body: { from: `a@${SANDBOX}`, to: other.email, subject: 'idem', text: 't' },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const bad = await api('POST', '/emails', {
      key: account.key,
      headers: { 'Idempotency-Key': 'has space' },
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't' },
    });
    expect(bad.status).toBe(400);
  });

  it('does not record a refused request: the key can be retried after fixing it', async () => {
    const key = randomUUID();
    const refused = await api('POST', '/emails', {
      key: account.key,
      headers: { 'Idempotency-Key': key },
      body: { from: `a@${SANDBOX}`, to: 'stranger@example.com', subject: 's', text: 't' },
    });
    expect(refused.status).toBe(403);
    const fixed = await api('POST', '/emails', {
      key: account.key,
      headers: { 'Idempotency-Key': key },
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't' },
    });
    expect(fixed.status).toBe(200);
  });
});

describe('POST /emails/batch', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'pro' });
  });
  const item = (subject: string, extra: object = {}) => ({ from: `a@${SANDBOX}`, to: account.email, subject, text: 't', ...extra });

  it('answers index-aligned; one bad item does not sink the others', async () => {
    const response = await api('POST', '/emails/batch', {
      key: account.key,
      body: {
        emails: [
          item('b0'),
          { from: `a@${SANDBOX}`, subject: 'no recipient', text: 't' },
          item('b2', { attachments: [{ filename: 'a.txt', content: 'aGk=' }] }),
          item('b3', { to: 'stranger@example.com' }),
          item('b4', { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }),
        ],
      },
    });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.map((d: { index: number }) => d.index)).toEqual([0, 1, 2, 3, 4]);
    expect(data[0]).toEqual({ index: 0, id: expect.stringMatching(/^msg_/), status: 'sent' });
    expect(data[1]).toMatchObject({
      index: 1,
      id: null,
      status: 'failed',
      error: { code: 'validation_error', details: { fields: [{ field: 'to' }] } },
    });
    expect(data[2]).toMatchObject({ status: 'failed', error: { code: 'validation_error', message: expect.stringContaining('batch') } });
    expect(data[3]).toMatchObject({ status: 'failed', error: { code: 'recipient_not_allowed' } });
    expect(data[4]).toMatchObject({ status: 'scheduled', id: expect.stringMatching(/^msg_/) });
    await waitFor(
      async () => (await api('GET', `/emails/${data[0].id}`, { key: account.key })).body.email.status === 'delivered',
      'batch item delivered',
    );
  });

  it("refuses a suppressed recipient's item as a single send does, the list read once for the batch (a verified domain, a paid plan)", async () => {
    const own = await newAccount({ plan: 'pro', paymentMethod: true });
    const from = `a@${(await verifiedDomain(own)).name}`;
    const blocked = `blocked-${randomUUID().slice(0, 8)}@example.com`;
    expect((await api('POST', '/suppressions', { key: own.key, body: { email: blocked } })).status).toBeLessThan(300);
    const response = await api('POST', '/emails/batch', {
      key: own.key,
      body: {
        emails: [
          { from, to: `ok-${randomUUID().slice(0, 8)}@example.com`, subject: 's0', text: 't' },
          { from, to: blocked.toUpperCase(), subject: 's1', text: 't' },
          { from, to: [`ok2-${randomUUID().slice(0, 8)}@example.com`, blocked], subject: 's2', text: 't' },
        ],
      },
    });
    expect(response.status).toBe(200);
    const [sent, refused, mixed] = response.body.data;
    expect(sent).toMatchObject({ status: 'sent', id: expect.stringMatching(/^msg_/) });
    expect(refused).toMatchObject({ status: 'failed', error: { details: { suppressed: [blocked] } } });
    expect(mixed).toMatchObject({ status: 'failed', error: { details: { suppressed: [blocked] } } });
  });

  it('refuses an empty batch, more than 100 items and a body without emails', async () => {
    for (const body of [{ emails: [] }, { emails: Array.from({ length: 101 }, (_, i) => item(`x${i}`)) }, { messages: [] }, []]) {
      const response = await api('POST', '/emails/batch', { key: account.key, body });
      expect(response.status).toBe(400);
      expect(response.body.error.details.fields[0].field).toBe('emails');
    }
  });

  it('replays a whole batch for the same Idempotency-Key, also under concurrency, creating each email once', async () => {
    const key = randomUUID();
    const body = { emails: [item('i0'), item('i1'), item('i2')] };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => api('POST', '/emails/batch', { key: account.key, headers: { 'Idempotency-Key': key }, body })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    for (const result of results) expect(result.body).toEqual(results[0]!.body);
    const ids = results[0]!.body.data.map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(3);
    const later = await api('POST', '/emails/batch', { key: account.key, headers: { 'Idempotency-Key': key }, body });
    expect(later.body).toEqual(results[0]!.body);
    const conflict = await api('POST', '/emails/batch', {
      key: account.key,
      headers: { 'Idempotency-Key': key },
      body: { emails: [item('other')] },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
  });
});
