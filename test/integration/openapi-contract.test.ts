/**
 * The contract check is on (test/integration/harness/contract-setup.ts): answers of the API, whichever
 * way a test reaches it, are checked against the OpenAPI document, and one that does not match is
 * reported. And the local cloud serves the document and its reference page (the reference group).
 */
import { buildApiDocument } from '#functions/api/openapi';
import { checkApiResponse, checkedAnswers, takeContractProblems } from './harness/contract';
import { dashboardRequest } from './harness/dashboard';
import { api, newAccount, stack } from './harness/stack';

test('answers through api(), a direct fetch and the dashboard harness are all checked', async () => {
  const account = await newAccount();
  const before = checkedAnswers();
  expect((await api('GET', '/emails?limit=1', { key: account.key })).status).toBe(200);
  expect((await fetch(`${stack().apiUrl}/api-keys`, { headers: { authorization: `Bearer ${account.key}` } })).status).toBe(200);
  expect((await dashboardRequest('GET', '/dashboard/session')).status).toBe(401);
  expect(checkedAnswers()).toBe(before + 3);
  expect(takeContractProblems()).toEqual([]);
});

test('an answer that does not match the document is reported', () => {
  checkApiResponse('GET', '/api-keys', {
    status: 200,
    header: (name) => (name === 'content-type' ? 'application/json' : null),
    text: JSON.stringify({ api_keys: [{ id: 'nope' }] }),
  });
  const problems = takeContractProblems();
  expect(problems).toHaveLength(1);
  expect(problems[0]).toContain('GET /api-keys -> 200 (listApiKeys): the body does not match the document');
});

test('GET /openapi.json serves the document, GET /reference the page', async () => {
  const document = await api('GET', '/openapi.json');
  expect(document.status).toBe(200);
  expect(document.body).toEqual(JSON.parse(JSON.stringify(buildApiDocument())));
  const page = await fetch(`${stack().apiUrl}/reference`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
  expect(await page.text()).toContain('<h2 id="t-emails">Emails</h2>');
});
