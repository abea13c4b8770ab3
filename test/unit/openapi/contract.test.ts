/**
 * The contract check itself (test/support/openapi-contract.ts), which the integration tests run on every
 * answer: it passes answers that match the document and fails those that do not, saying why.
 */
import { createReferenceApp } from '#functions/api/reference/app';
import { buildApiDocument } from '#functions/api/openapi';
import { exampleEmail, id } from '#shared/doors/openapi/examples';
import { contractChecker } from '../../support/contract-validators';
import { ContractChecker, type CheckedResponse } from '../../support/openapi-contract';

const document = buildApiDocument();
const checker = new ContractChecker(document);

function answer(status: number, body: unknown, headers: Record<string, string> = {}): CheckedResponse {
  const all: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8', ...headers };
  const lower = Object.fromEntries(Object.entries(all).map(([name, value]) => [name.toLowerCase(), value]));
  return { status, header: (name) => lower[name.toLowerCase()] ?? null, text: typeof body === 'string' ? body : JSON.stringify(body) };
}

const RATE = { 'ratelimit-limit': '10', 'ratelimit-remaining': '9', 'ratelimit-reset': '1' };

test('an answer as documented passes', () => {
  expect(checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(200, { email: exampleEmail }))).toEqual([]);
  expect(
    checker.check(
      { method: 'GET', url: '/emails?limit=1' },
      answer(200, { emails: [exampleEmail], has_more: false, next_cursor: null }, RATE),
    ),
  ).toEqual([]);
  expect(
    checker.check(
      { method: 'POST', url: '/emails' },
      answer(403, { error: { message: 'no', code: 'domain_not_verified', details: { domain: 'x.com' } } }),
    ),
  ).toEqual([]);
  expect(checker.check({ method: 'POST', url: '/emails' }, answer(401, { error: { message: 'Missing API key.' } }))).toEqual([]);
});

test('a body that does not match fails, naming the field', () => {
  const { status: _status, ...withoutStatus } = exampleEmail;
  const missing = checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(200, { email: withoutStatus }));
  expect(missing).toHaveLength(1);
  expect(missing[0]).toMatch(/GET \/emails\/msg_\w+ -> 200 \(getEmail\): the body does not match the document/);
  expect(missing[0]).toContain("must have required property 'status'");

  const extra = checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(200, { email: { ...exampleEmail, internal: 1 } }));
  expect(extra.join('\n')).toContain('must NOT have additional properties');

  const wrongType = checker.check(
    { method: 'GET', url: `/emails/${id('msg')}` },
    answer(200, { email: { ...exampleEmail, to: 'ada@example.com' } }),
  );
  expect(wrongType.join('\n')).toContain('/email/to must be array');

  const badEnum = checker.check(
    { method: 'GET', url: `/emails/${id('msg')}` },
    answer(200, { email: { ...exampleEmail, status: 'lost' } }),
  );
  expect(badEnum.join('\n')).toContain('/email/status must be equal to one of the allowed values');
});

test('an undocumented status, error code or 401 shape fails', () => {
  expect(
    checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(409, { error: { message: 'x', code: 'conflict' } }))[0],
  ).toContain('status 409 is not documented');
  expect(
    checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(404, { error: { message: 'x', code: 'gone' } })).join('\n'),
  ).toContain('allowed values');
  expect(
    checker
      .check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(401, { error: { message: 'x', code: 'unauthorized' } }))
      .join('\n'),
  ).toContain('additional properties');
});

test('a missing required header fails (rate limits on GET /emails)', () => {
  const problems = checker.check({ method: 'GET', url: '/emails' }, answer(200, { emails: [], has_more: false, next_cursor: null }));
  expect(problems).toEqual(expect.arrayContaining([expect.stringContaining('required header ratelimit-limit is missing')]));
});

test('a content type or body the document does not describe fails', () => {
  expect(
    checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(200, '<p>hi</p>', { 'content-type': 'text/html' }))[0],
  ).toContain('content-type text/html is not documented');
  expect(checker.check({ method: 'GET', url: `/emails/${id('msg')}` }, answer(200, 'not json'))[0]).toContain('the body is not JSON');
});

test('routes without an operation: a success fails, an error must still be the envelope; local pages are not checked', () => {
  expect(checker.check({ method: 'GET', url: '/secret-route' }, answer(200, { ok: true }))[0]).toContain(
    'no operation of the document answers GET /secret-route',
  );
  expect(
    checker.check(
      { method: 'PUT', url: '/emails' },
      answer(404, { error: { message: 'Route PUT /emails was not found.', code: 'not_found' } }),
    ),
  ).toEqual([]);
  expect(checker.check({ method: 'PUT', url: '/emails' }, answer(404, { message: 'nope' }))).toHaveLength(1);
  expect(checker.check({ method: 'GET', url: '/_local/ses/messages' }, answer(200, { anything: true }))).toEqual([]);
});

test('literal paths win over templates (POST /emails/batch is not POST /emails/{id}/...)', () => {
  expect(checker.operationFor('POST', '/emails/batch')?.operation.operationId).toBe('sendBatch');
  expect(checker.operationFor('GET', `/emails/${id('msg')}`)?.operation.operationId).toBe('getEmail');
  expect(checker.operationFor('HEAD', '/t/open/abc')?.operation.operationId).toBe('trackOpen');
});

test('the reference group answers as documented', async () => {
  const app = createReferenceApp(document);
  for (const path of ['/openapi.json', '/reference']) {
    const response = await app.request(path);
    const text = await response.text();
    expect(
      checker.check({ method: 'GET', url: path }, { status: response.status, header: (name) => response.headers.get(name), text }),
    ).toEqual([]);
  }
});

test('the validators compiled beforehand (ajv standalone, test/support/contract-validators.ts) judge as those compiled at once', () => {
  // The integration files' checker: docs/openapi.json with the compiled module (written here when missing).
  const compiled = contractChecker();
  const cases: [string, string, CheckedResponse][] = [
    ['GET', `/emails/${id('msg')}`, answer(200, { email: exampleEmail })],
    ['GET', `/emails/${id('msg')}`, answer(200, { email: { ...exampleEmail, status: 'nope' } })],
    ['GET', `/emails/${id('msg')}`, answer(200, { email: { ...exampleEmail, created_at: 'yesterday' } })],
    ['GET', '/emails?limit=1', answer(200, { emails: [exampleEmail], has_more: false, next_cursor: null }, RATE)],
    ['POST', '/emails', answer(403, { error: { message: 'no', code: 'domain_not_verified', details: { domain: 'x.com' } } })],
    ['POST', '/emails', answer(400, { error: 'flat' })],
    ['GET', '/no-such-route', answer(404, { error: { message: 'Not found.', code: 'not_found' } })],
    ['GET', '/no-such-route', answer(404, { message: 'Not found.' })],
  ];
  const verdicts = cases.map(([method, url, response]) => compiled.check({ method, url }, response));
  expect(verdicts).toEqual(cases.map(([method, url, response]) => checker.check({ method, url }, response)));
  // Both kinds of verdict are among them: the comparison is not of empty lists only.
  expect(verdicts.filter((problems) => problems.length === 0)).toHaveLength(4);
  expect(verdicts[2]!.join('\n')).toContain('must match format "date-time"');
});
