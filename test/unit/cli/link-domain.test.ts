/**
 * `mailservice domains link-domain` against a recorded API: a name is looked up in the domain list, then with
 * `--set-up` PUT /domains/{id}/link-domain (no body) asks for the link domain and prints its status, base URL and
 * message and the records to publish in the API's order (none yet: says when the first is listed); without a flag
 * it only reads it (GET); `--delete` DELETEs it and prints one line; `--json` prints the answers as they came; the
 * API's 404, 400 and 403 print its message and exit 1; `--set-up` with `--delete` is a usage error (exit 2) before
 * any request.
 */
import { fakeApi, run } from './harness';
import {
  LINK_DOMAIN_ACTIVE_ANSWER,
  LINK_DOMAIN_DELETED_ANSWER,
  LINK_DOMAIN_NOT_FOUND_ANSWER,
  LINK_DOMAIN_NOT_VERIFIED_ANSWER,
  LINK_DOMAIN_PLAN_LIMIT_ANSWER,
  LINK_DOMAIN_REQUESTED_ANSWER,
  LINK_DOMAIN_SERVED_ANSWER,
} from '../../support/api-answers/link-domain';
import { DOMAIN_LIST_ANSWER } from '../../support/api-answers/mta-sts';

const calls = (requests: { method: string; url: URL }[]) => requests.map((request) => `${request.method} ${request.url.pathname}`);

describe('mailservice domains link-domain', () => {
  it('looks the name up, PUTs /domains/{id}/link-domain with no body and prints the status, base URL, message and that no record is listed yet', async () => {
    const api = fakeApi([() => ({ body: DOMAIN_LIST_ANSWER }), () => ({ body: LINK_DOMAIN_REQUESTED_ANSWER })]);
    const result = await run(['domains', 'link-domain', 'Example.com', '--set-up'], { fetch: api.fetch });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains', 'PUT /domains/dom_01/link-domain']);
    expect(api.requests[1]!.body).toBeUndefined();
    expect(result.stdout).toBe(
      [
        'Link domain links.example.com (dom_01): pending_certificate',
        'status:     pending_certificate',
        'base url:   https://links.example.com',
        'message:    Requesting the certificate of the link domain: its validation record is listed here within a minute.',
        'next check: 2026-03-01T10:00:00.000Z',
        '',
        'no records yet: the certificate_validation record is listed within a minute',
        '',
      ].join('\n'),
    );
  });

  it('PUT again prints the records to publish in order, each with its status and what the last check found', async () => {
    const api = fakeApi([() => ({ body: LINK_DOMAIN_SERVED_ANSWER })]);
    const result = await run(['domains', 'link-domain', 'dom_01', '--set-up'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['PUT /domains/dom_01/link-domain']);
    expect(result.stdout).toBe(
      [
        'Link domain links.example.com (dom_01): pending_dns',
        'status:     pending_dns',
        'base url:   https://links.example.com',
        "message:    The link domain is served; publish the link_host CNAME (links.example.com to d-abc123.execute-api.eu-west-1.amazonaws.com) so that the domain's links use it.",
        'checked:    2026-03-01T10:10:00.000Z',
        'next check: 2026-03-01T10:15:00.000Z',
        '',
        'PURPOSE                 TYPE   NAME                   VALUE                                         REQUIRED  STATUS    FOUND',
        'certificate_validation  CNAME  _a1.links.example.com  _b2.acm-validations.aws                       yes       verified  -',
        'link_host               CNAME  links.example.com      d-abc123.execute-api.eu-west-1.amazonaws.com  yes       pending   -',
        '',
      ].join('\n'),
    );
  });

  it('without a flag it only reads it (GET): an active one, no message, the CNAME found; --json prints the answer', async () => {
    const api = fakeApi([() => ({ body: LINK_DOMAIN_ACTIVE_ANSWER }), () => ({ body: LINK_DOMAIN_ACTIVE_ANSWER })]);
    const shown = await run(['domains', 'link-domain', 'dom_01'], { fetch: api.fetch });
    expect(shown.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains/dom_01/link-domain']);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toBe('Link domain links.example.com (dom_01): active');
    expect(shown.stdout).not.toContain('message:');
    expect(shown.stdout).toContain('checked:    2026-03-02T10:05:00.000Z\n');
    expect(
      lines
        .slice(lines.findIndex((line) => line.startsWith('PURPOSE')) + 1)
        .filter(Boolean)
        .map((line) => line.split(/\s{2,}/)),
    ).toEqual([
      ['certificate_validation', 'CNAME', '_a1.links.example.com', '_b2.acm-validations.aws', 'yes', 'verified', '-'],
      [
        'link_host',
        'CNAME',
        'links.example.com',
        'd-abc123.execute-api.eu-west-1.amazonaws.com',
        'yes',
        'verified',
        'd-abc123.execute-api.eu-west-1.amazonaws.com',
      ],
    ]);
    const json = await run(['--json', 'domains', 'link-domain', 'dom_01'], { fetch: api.fetch });
    expect(api.requests[1]!.method).toBe('GET');
    expect(JSON.parse(json.stdout)).toEqual(LINK_DOMAIN_ACTIVE_ANSWER);
  });

  it('--json --set-up prints the answer of the PUT as it came', async () => {
    const api = fakeApi([() => ({ body: LINK_DOMAIN_REQUESTED_ANSWER })]);
    const result = await run(['--json', 'domains', 'link-domain', 'dom_01', '--set-up'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['PUT /domains/dom_01/link-domain']);
    expect(JSON.parse(result.stdout)).toEqual(LINK_DOMAIN_REQUESTED_ANSWER);
  });

  it('--delete DELETEs the link domain and prints one line; --json prints the answer', async () => {
    const api = fakeApi([
      () => ({ body: DOMAIN_LIST_ANSWER }),
      () => ({ body: LINK_DOMAIN_DELETED_ANSWER }),
      () => ({ body: LINK_DOMAIN_DELETED_ANSWER }),
    ]);
    const text = await run(['domains', 'link-domain', 'example.com', '--delete'], { fetch: api.fetch });
    expect(text.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains', 'DELETE /domains/dom_01/link-domain']);
    expect(text.stdout).toBe(
      "stopped the link domain of dom_01: its emails link to the service's link host again; its certificate and custom domain name are deleted within minutes\n",
    );
    const json = await run(['--json', 'domains', 'link-domain', 'dom_01', '--delete'], { fetch: api.fetch });
    expect(api.requests[2]!.method).toBe('DELETE');
    expect(JSON.parse(json.stdout)).toEqual(LINK_DOMAIN_DELETED_ANSWER);
  });

  it("exits 1 with the API's message when there is none (404), the domain is not verified (400) or the plan is full (403)", async () => {
    const api = fakeApi([
      () => ({ status: 404, body: LINK_DOMAIN_NOT_FOUND_ANSWER }),
      () => ({ status: 400, body: LINK_DOMAIN_NOT_VERIFIED_ANSWER }),
      () => ({ status: 403, body: LINK_DOMAIN_PLAN_LIMIT_ANSWER }),
    ]);
    const missing = await run(['domains', 'link-domain', 'dom_01'], { fetch: api.fetch });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('Error: Link domain dom_01 was not found. (not_found, HTTP 404)\n');
    const refused = await run(['domains', 'link-domain', 'dom_01', '--set-up'], { fetch: api.fetch });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Error: ${LINK_DOMAIN_NOT_VERIFIED_ANSWER.error.message} (validation_error, HTTP 400)\n`);
    expect(refused.stderr).toContain('  domain: example.com is not verified yet');
    const full = await run(['domains', 'link-domain', 'dom_01', '--set-up'], { fetch: api.fetch });
    expect(full.status).toBe(1);
    expect(full.stderr).toBe(`Error: ${LINK_DOMAIN_PLAN_LIMIT_ANSWER.error.message} (plan_limit, HTTP 403)\n`);
    expect(calls(api.requests)).toEqual([
      'GET /domains/dom_01/link-domain',
      'PUT /domains/dom_01/link-domain',
      'PUT /domains/dom_01/link-domain',
    ]);
  });

  it('exits 1 naming a domain the account does not have, before any link domain request', async () => {
    const api = fakeApi([() => ({ body: DOMAIN_LIST_ANSWER })]);
    const result = await run(['domains', 'link-domain', 'other.example'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no domain named other.example in this account');
    expect(calls(api.requests)).toEqual(['GET /domains']);
  });

  it('refuses --set-up with --delete before any request (exit 2)', async () => {
    const api = fakeApi([]);
    const result = await run(['domains', 'link-domain', 'dom_01', '--set-up', '--delete'], { fetch: api.fetch });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--set-up and --delete cannot go together');
    expect(api.requests).toHaveLength(0);
  });
});
