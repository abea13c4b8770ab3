/**
 * `mailservice domains routes` against a recorded API (its answers checked against the API's own response
 * schema): a name is looked up in the domain list, then GET /domains/{id}/inbound-routes prints a line and the
 * routes as a table in order; `--set` PUTs `{routes}` from a JSON file (an object with `routes`, GET's answer
 * included, or a bare array) and prints the answer the same way; `--clear` PUTs `[]`; `--json` prints the
 * answer as it came; a file that is not JSON or not routes, and `--set` with `--clear`, are usage errors
 * (exit 2) before any request; the API's 409 and 400 exit 1 with its message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeApi, run } from './harness';
import {
  BAD_ROUTE_ANSWER,
  DOMAIN_ID,
  NO_ROUTES_ANSWER,
  NOT_RECEIVING_ANSWER,
  NOT_RECEIVING_VIEW_ANSWER,
  ROUTES_ANSWER,
  ROUTES_DOMAIN_LIST_ANSWER,
} from '../../support/api-answers/inbound-routes';

const calls = (requests: { method: string; url: URL }[]) => requests.map((request) => `${request.method} ${request.url.pathname}`);
const ROUTES_PATH = `/domains/${DOMAIN_ID}/inbound-routes`;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'cli-inbound-routes-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A file in the test's folder holding `text`; its path. */
function fileWith(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

describe('mailservice domains routes', () => {
  it('looks the name up, reads GET /domains/{id}/inbound-routes and prints a line and each route in order', async () => {
    const api = fakeApi([() => ({ body: ROUTES_DOMAIN_LIST_ANSWER }), () => ({ body: ROUTES_ANSWER })]);
    const result = await run(['domains', 'routes', 'Helpdesk.example'], { fetch: api.fetch });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains', `GET ${ROUTES_PATH}`]);
    expect(result.stdout).toBe(
      [
        `inbound routes of inbound.helpdesk.example (${DOMAIN_ID}): 6 routes, the first that matches decides; set 2026-03-01T10:00:00.000Z`,
        '#  RECIPIENT   SENDER             ACTION    WEBHOOKS / FORWARD / MESSAGE                                  DESCRIPTION',
        '1  billing     -                  webhooks  wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N, wh_01JD8Z6Q0R5M3W2K9X7V4T1B8M  invoices to the billing app',
        '2  support+*   @customer.example  webhooks  every endpoint subscribed to email.received                   -',
        '3  newsletter  -                  store     -                                                             -',
        '4  invoices    -                  forward   to accounts@example.org                                       -',
        '5  noreply     -                  refuse    This address does not take replies.                           -',
        '6  *           spam@bad.example   refuse    the default refusal                                           -',
        '',
      ].join('\n'),
    );
  });

  it('says what happens without routes, and when the domain does not receive mail', async () => {
    const api = fakeApi([() => ({ body: NO_ROUTES_ANSWER }), () => ({ body: NOT_RECEIVING_VIEW_ANSWER })]);
    const none = await run(['domains', 'routes', DOMAIN_ID], { fetch: api.fetch });
    expect(none.status).toBe(0);
    expect(none.stdout).toBe(
      `inbound routes of inbound.helpdesk.example (${DOMAIN_ID}): no routes: every recipient is recorded and published to every endpoint subscribed to email.received; set 2026-03-02T10:00:00.000Z\n`,
    );
    const off = await run(['domains', 'routes', DOMAIN_ID], { fetch: api.fetch });
    expect(off.stdout).toMatch(new RegExp(`^inbound routes of ${DOMAIN_ID} \\(does not receive mail\\): no routes: [^;]*\\n$`));
    expect(calls(api.requests)).toEqual([`GET ${ROUTES_PATH}`, `GET ${ROUTES_PATH}`]);
  });

  it('--set PUTs {routes} from a file holding {"routes": [...]}, GET\'s answer included, and prints the answer as a read does', async () => {
    const routes = ROUTES_ANSWER.routes.slice(2, 4);
    const api = fakeApi([() => ({ body: ROUTES_ANSWER }), () => ({ body: ROUTES_ANSWER })]);
    const set = await run(['domains', 'routes', DOMAIN_ID, '--set', fileWith('routes.json', JSON.stringify({ routes }))], {
      fetch: api.fetch,
    });
    expect(set.stderr).toBe('');
    expect(set.status).toBe(0);
    expect(calls(api.requests)).toEqual([`PUT ${ROUTES_PATH}`]);
    expect(api.requests[0]!.body).toEqual({ routes });
    expect(set.stdout.split('\n')[0]).toBe(
      `inbound routes of inbound.helpdesk.example (${DOMAIN_ID}): 6 routes, the first that matches decides; set 2026-03-01T10:00:00.000Z`,
    );
    expect(set.stdout).toContain('\n5  noreply     -                  refuse    This address does not take replies.');
    // The answer of `--json domains routes`, edited and set again: only its routes are sent.
    await run(['domains', 'routes', DOMAIN_ID, '--set', fileWith('answer.json', JSON.stringify(NO_ROUTES_ANSWER))], { fetch: api.fetch });
    expect(api.requests[1]!.body).toEqual({ routes: [] });
  });

  it('--set takes a bare array of routes; --json prints the answer as it came', async () => {
    const routes = [{ match: { recipient: 'noreply' }, action: { type: 'refuse' } }];
    const api = fakeApi([() => ({ body: ROUTES_ANSWER })]);
    const set = await run(['--json', 'domains', 'routes', DOMAIN_ID, '--set', fileWith('bare.json', JSON.stringify(routes))], {
      fetch: api.fetch,
    });
    expect(set.status).toBe(0);
    expect(api.requests[0]!.method).toBe('PUT');
    expect(api.requests[0]!.body).toEqual({ routes });
    expect(JSON.parse(set.stdout)).toEqual(ROUTES_ANSWER);
  });

  it('--clear PUTs no routes, after looking the name up', async () => {
    const api = fakeApi([() => ({ body: ROUTES_DOMAIN_LIST_ANSWER }), () => ({ body: NO_ROUTES_ANSWER })]);
    const cleared = await run(['domains', 'routes', 'helpdesk.example', '--clear'], { fetch: api.fetch });
    expect(cleared.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains', `PUT ${ROUTES_PATH}`]);
    expect(api.requests[1]!.body).toEqual({ routes: [] });
    expect(cleared.stdout).toContain(': no routes: every recipient is recorded');
  });

  it("exits 1 with the API's message when the domain does not receive mail (409) and when it refuses a route (400, its field named)", async () => {
    const api = fakeApi([() => ({ status: 409, body: NOT_RECEIVING_ANSWER }), () => ({ status: 400, body: BAD_ROUTE_ANSWER })]);
    const refused = await run(['domains', 'routes', DOMAIN_ID, '--clear'], { fetch: api.fetch });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      [
        `Error: Domain ${DOMAIN_ID} does not receive mail, so it has no routes. (conflict, HTTP 409)`,
        'Hint: Turn receiving on first: PATCH /domains/{id} with {"inbound_enabled": true}.',
        '',
      ].join('\n'),
    );
    const file = fileWith('bad-route.json', JSON.stringify([{ match: { recipient: 'a@b' }, action: { type: 'store' } }]));
    const bad = await run(['domains', 'routes', DOMAIN_ID, '--set', file], { fetch: api.fetch });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('  routes.0.match.recipient: match.recipient is a local part without @');
    expect(calls(api.requests)).toEqual([`PUT ${ROUTES_PATH}`, `PUT ${ROUTES_PATH}`]);
  });

  it('exits 1 naming a domain the account does not have, before any routes request', async () => {
    const api = fakeApi([() => ({ body: ROUTES_DOMAIN_LIST_ANSWER })]);
    const result = await run(['domains', 'routes', 'other.example', '--clear'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no domain named other.example in this account');
    expect(calls(api.requests)).toEqual(['GET /domains']);
  });

  it.each([
    ['not JSON', 'routes: [billing]', 'is not JSON ('],
    ['an object without routes', '{"route": []}', 'must hold {"routes": [...]} or an array of routes'],
    ['routes that are not an array', '{"routes": {"match": {"recipient": "*"}}}', 'must hold {"routes": [...]} or an array of routes'],
    ['a string', '"billing"', 'must hold {"routes": [...]} or an array of routes'],
    ['null', 'null', 'must hold {"routes": [...]} or an array of routes'],
    [
      'a route that is not an object',
      '[{"match": {"recipient": "*"}, "action": {"type": "store"}}, "billing"]',
      'route 2 is not an object',
    ],
  ])('refuses a file holding %s before any request (exit 2)', async (_what, text, message) => {
    const api = fakeApi([]);
    const file = fileWith('refused.json', text);
    const result = await run(['domains', 'routes', 'helpdesk.example', '--set', file], { fetch: api.fetch });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}`);
    expect(result.stderr).toContain(message);
    expect(api.requests).toHaveLength(0);
  });

  it('refuses a file it cannot read, and --set with --clear, before any request (exit 2)', async () => {
    const api = fakeApi([]);
    const missing = await run(['domains', 'routes', DOMAIN_ID, '--set', join(folder, 'missing.json')], { fetch: api.fetch });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('missing.json: cannot read it (ENOENT)');
    const both = await run(['domains', 'routes', DOMAIN_ID, '--set', fileWith('ok.json', '[]'), '--clear'], { fetch: api.fetch });
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--set and --clear go alone');
    expect(api.requests).toHaveLength(0);
  });
});
