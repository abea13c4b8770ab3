/** Authentication, the error envelope, request ids, validation and unknown routes. */
import { api, newAccount, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';

describe('authentication', () => {
  it('answers 401 with a body of exactly {error: {message}} when the key is missing', async () => {
    const response = await api('GET', '/emails/msg_x');
    expect(response.status).toBe(401);
    expect(Object.keys(response.body)).toEqual(['error']);
    expect(Object.keys(response.body.error)).toEqual(['message']);
    expect(response.body.error.message).toMatch(/API key/);
  });

  it.each([
    ['an unknown key', 'Bearer svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed key', 'Bearer not-a-key'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('answers 401 for %s', async (_, authorization) => {
    const response = await api('POST', '/emails', { headers: { authorization }, body: {} });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { message: expect.any(String) } });
  });

  it('returns a request id header on every response', async () => {
    const account = await newAccount();
    const ok = await api('GET', '/api-keys', { key: account.key });
    const denied = await api('GET', '/api-keys');
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    expect(denied.headers.get('x-request-id')).toMatch(/^req_/);
    expect(ok.headers.get('x-request-id')).not.toBe(denied.headers.get('x-request-id'));
  });
});

describe('errors', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('answers invalid JSON with 400 validation_error', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      rawBody: '{"from": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/JSON/) });
  });

  it('names every missing or invalid field in details', async () => {
    const response = await api('POST', '/emails', { key: account.key, body: { from: 'not an address', subject: '' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
    const fields = response.body.error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['from', 'to', 'subject']));
  });

  it('requires html or text', async () => {
    const response = await api('POST', '/emails', { key: account.key, body: { from: `a@${SANDBOX}`, to: account.email, subject: 's' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([{ field: 'html', message: 'one of html or text is required' }]);
  });

  it('rejects dangerous headers, naming them', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${SANDBOX}`,
        to: account.email,
        subject: 's',
        text: 't',
        headers: { Bcc: 'x@example.com', 'X-Ok': 'fine', 'X-Evil': 'a\r\nBcc: y@example.com' },
      },
    });
    expect(response.status).toBe(400);
    const fields = response.body.error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['headers.Bcc', 'headers.X-Evil']));
    expect(fields).not.toContain('headers.X-Ok');
  });

  it('answers unknown routes with 404 not_found in the envelope', async () => {
    const outside = await api('GET', '/no-such-thing', { key: account.key });
    expect(outside.status).toBe(404);
    expect(outside.body.error.code).toBe('not_found');
    const inside = await api('PUT', '/emails/x/y/z', { key: account.key });
    expect(inside.status).toBe(404);
    expect(inside.body.error.code).toBe('not_found');
  });
});
