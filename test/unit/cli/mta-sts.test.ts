/**
 * `mailservice domains mta-sts` against a recorded API: a name is looked up in the domain list, then GET
 * /domains/{id}/mta-sts prints the status, mode, policy URL and message and the records to publish in the
 * API's order; `--mode` (with `--max-age`) PUTs the policy and prints it as a show does; `--delete` DELETEs
 * it and prints one line; `--json` prints the answers as they came; the API's 404 and 400 print its message
 * and exit 1; bad flags are usage errors (exit 2) before any request.
 */
import { fakeApi, run } from './harness';
import {
  DOMAIN_LIST_ANSWER,
  MTA_STS_ACTIVE_ANSWER,
  MTA_STS_DELETED_ANSWER,
  MTA_STS_NOT_FOUND_ANSWER,
  MTA_STS_NOT_RECEIVING_ANSWER,
  MTA_STS_PENDING_ANSWER,
} from '../../support/api-answers/mta-sts';

const calls = (requests: { method: string; url: URL }[]) => requests.map((request) => `${request.method} ${request.url.pathname}`);

describe('mailservice domains mta-sts', () => {
  it('looks the name up, reads GET /domains/{id}/mta-sts and prints the status, mode, URL, message and the records in order', async () => {
    const api = fakeApi([() => ({ body: DOMAIN_LIST_ANSWER }), () => ({ body: MTA_STS_PENDING_ANSWER })]);
    const result = await run(['domains', 'mta-sts', 'Example.com'], { fetch: api.fetch });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains', 'GET /domains/dom_01/mta-sts']);
    expect(result.stdout).toBe(
      [
        'MTA-STS policy of inbound.example.com (dom_01): pending_certificate, mode testing, max_age 604800 s',
        'status:     pending_certificate',
        'mode:       testing',
        'policy url: https://mta-sts.inbound.example.com/.well-known/mta-sts.txt',
        'message:    Publish the certificate_validation record: the certificate is issued once ACM finds it.',
        'policy id:  202603011000001',
        'mx:         inbound.mailservice.dev',
        'max age:    604800 s',
        'next check: 2026-03-01T10:01:00.000Z',
        '',
        'PURPOSE                 TYPE   NAME                             VALUE                                                   REQUIRED  STATUS   FOUND',
        'certificate_validation  CNAME  _a1.mta-sts.inbound.example.com  _b2.acm-validations.aws                                 yes       pending  -',
        'policy                  TXT    _mta-sts.inbound.example.com     v=STSv1; id=202603011000001                             yes       pending  -',
        'tls_rpt                 TXT    _smtp._tls.inbound.example.com   v=TLSRPTv1; rua=mailto:tls-reports@inbound.example.com  no        pending  -',
        '',
      ].join('\n'),
    );
  });

  it('shows an active policy: no message, when it was checked and what each check found', async () => {
    const api = fakeApi([() => ({ body: MTA_STS_ACTIVE_ANSWER })]);
    const result = await run(['domains', 'mta-sts', 'dom_01'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains/dom_01/mta-sts']);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('MTA-STS policy of inbound.example.com (dom_01): active, mode enforce, max_age 86400 s');
    expect(result.stdout).not.toContain('message:');
    expect(result.stdout).toContain('checked:    2026-03-02T10:05:00.000Z\n');
    expect(
      lines
        .slice(lines.findIndex((line) => line.startsWith('PURPOSE')) + 1)
        .filter(Boolean)
        .map((line) => line.split(/\s{2,}/)),
    ).toEqual([
      ['certificate_validation', 'CNAME', '_a1.mta-sts.inbound.example.com', '_b2.acm-validations.aws', 'yes', 'verified', '-'],
      [
        'policy_host',
        'CNAME',
        'mta-sts.inbound.example.com',
        'd-abc123.execute-api.eu-west-1.amazonaws.com',
        'yes',
        'verified',
        'd-abc123.execute-api.eu-west-1.amazonaws.com',
      ],
      ['policy', 'TXT', '_mta-sts.inbound.example.com', 'v=STSv1; id=202603021000003', 'yes', 'verified', 'v=STSv1; id=202603021000003'],
      ['tls_rpt', 'TXT', '_smtp._tls.inbound.example.com', 'v=TLSRPTv1; rua=mailto:tls-reports@inbound.example.com', 'no', 'pending', '-'],
    ]);
  });

  it('--mode with --max-age PUTs {mode, max_age} and prints the policy; --mode alone sends the mode only', async () => {
    const api = fakeApi([() => ({ body: MTA_STS_ACTIVE_ANSWER }), () => ({ body: MTA_STS_PENDING_ANSWER })]);
    const changed = await run(['domains', 'mta-sts', 'dom_01', '--mode', 'enforce', '--max-age', '86400'], { fetch: api.fetch });
    expect(changed.status).toBe(0);
    expect(calls(api.requests)).toEqual(['PUT /domains/dom_01/mta-sts']);
    expect(api.requests[0]!.body).toEqual({ mode: 'enforce', max_age: 86400 });
    expect(changed.stdout.split('\n')[0]).toBe('MTA-STS policy of inbound.example.com (dom_01): active, mode enforce, max_age 86400 s');
    const hosted = await run(['--json', 'domains', 'mta-sts', 'dom_01', '--mode', 'testing'], { fetch: api.fetch });
    expect(api.requests[1]!.method).toBe('PUT');
    expect(api.requests[1]!.body).toEqual({ mode: 'testing' });
    expect(JSON.parse(hosted.stdout)).toEqual(MTA_STS_PENDING_ANSWER);
  });

  it('--delete DELETEs the policy and prints one line; --json prints the answer', async () => {
    const api = fakeApi([
      () => ({ body: DOMAIN_LIST_ANSWER }),
      () => ({ body: MTA_STS_DELETED_ANSWER }),
      () => ({ body: MTA_STS_DELETED_ANSWER }),
    ]);
    const text = await run(['domains', 'mta-sts', 'example.com', '--delete'], { fetch: api.fetch });
    expect(text.status).toBe(0);
    expect(calls(api.requests)).toEqual(['GET /domains', 'DELETE /domains/dom_01/mta-sts']);
    expect(text.stdout).toBe(
      'stopped hosting the MTA-STS policy of dom_01: no longer served; its certificate and host are deleted within minutes\n',
    );
    const json = await run(['--json', 'domains', 'mta-sts', 'dom_01', '--delete'], { fetch: api.fetch });
    expect(api.requests[2]!.method).toBe('DELETE');
    expect(JSON.parse(json.stdout)).toEqual(MTA_STS_DELETED_ANSWER);
  });

  it("exits 1 with the API's message when none is hosted (404) and when the domain does not receive mail (400)", async () => {
    const api = fakeApi([
      () => ({ status: 404, body: MTA_STS_NOT_FOUND_ANSWER }),
      () => ({ status: 400, body: MTA_STS_NOT_RECEIVING_ANSWER }),
    ]);
    const missing = await run(['domains', 'mta-sts', 'dom_01'], { fetch: api.fetch });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('Error: MTA-STS policy dom_01 was not found. (not_found, HTTP 404)\n');
    const refused = await run(['domains', 'mta-sts', 'dom_01', '--mode', 'testing'], { fetch: api.fetch });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Error: ${MTA_STS_NOT_RECEIVING_ANSWER.error.message} (validation_error, HTTP 400)\n`);
    expect(refused.stderr).toContain('  domain: example.com does not receive mail\n');
  });

  it('exits 1 naming a domain the account does not have, before any MTA-STS request', async () => {
    const api = fakeApi([() => ({ body: DOMAIN_LIST_ANSWER })]);
    const result = await run(['domains', 'mta-sts', 'other.example'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no domain named other.example in this account');
    expect(calls(api.requests)).toEqual(['GET /domains']);
  });

  it.each([
    [['--mode', 'strict'], '--mode must be one of enforce, testing, none (got strict)'],
    [['--max-age', '86400'], '--max-age needs --mode'],
    [['--mode', 'testing', '--max-age', '1.5'], '--max-age must be a whole number of seconds (got 1.5)'],
    [['--delete', '--mode', 'none'], '--delete takes neither --mode nor --max-age'],
  ])('refuses %j before any request (exit 2)', async (flags, message) => {
    const api = fakeApi([]);
    const result = await run(['domains', 'mta-sts', 'dom_01', ...flags], { fetch: api.fetch });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(api.requests).toHaveLength(0);
  });
});
