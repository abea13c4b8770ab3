/**
 * `mailservice domains health | dmarc` against a recorded API: health reads GET /domains/{id}/health (a
 * name looked up in the domain list), `--now` posts to it; a counts line, a findings table in the API's
 * order with the record to publish, and what each open finding says; dmarc reads GET /domains/{id}/dmarc
 * with --since/--until and prints the totals, ours and others and the sources; `--json` prints the answers
 * as they came; a day that is not YYYY-MM-DD is a usage error (exit 2) before any request.
 */
import { fakeApi, run } from './harness';
import { DMARC_FIGURES_ANSWER, dmarcPart as part, HEALTH_ANSWER } from '../../support/api-answers/domain-health';

const HEALTH = HEALTH_ANSWER;
const FIGURES = DMARC_FIGURES_ANSWER;

const domainList = {
  body: { domains: [{ id: 'dom_01', name: 'example.com', status: 'verified', records: [] }], has_more: false, next_cursor: null },
};

describe('mailservice domains health', () => {
  it('looks the name up, reads GET /domains/{id}/health and prints the counts, the findings in order and what to do', async () => {
    const api = fakeApi([() => domainList, () => ({ body: HEALTH })]);
    const result = await run(['domains', 'health', 'Example.com'], { fetch: api.fetch });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(api.requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
      'GET /domains',
      'GET /domains/dom_01/health',
    ]);
    expect(result.stdout).toBe(
      [
        'example.com (dom_01): checked 2026-03-01T10:00:00.000Z, next check 2026-03-02T10:00:00.000Z: 2 open findings (1 high, 1 low)',
        '',
        'IMPACT  STATUS  CHECK  TYPE                 RECORD',
        'high    open    spf    spf_include_missing  TXT example.com v=spf1 include:amazonses.com ~all',
        'low     open    bimi   bimi_missing         -',
        'high    fixed   dmarc  dmarc_missing        -',
        '',
        'spf_include_missing: The SPF record does not include ours.',
        'bimi_missing: No BIMI record.',
        '',
      ].join('\n'),
    );
  });

  it('--now posts to /domains/{id}/health (an id is not looked up) and --json prints the answer', async () => {
    const api = fakeApi([() => ({ body: HEALTH })]);
    const result = await run(['--json', 'domains', 'health', 'dom_01', '--now'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]!.method).toBe('POST');
    expect(api.requests[0]!.url.pathname).toBe('/domains/dom_01/health');
    expect(JSON.parse(result.stdout)).toEqual(HEALTH);
  });

  it('says so when every check passed', async () => {
    const api = fakeApi([() => ({ body: { ...HEALTH, findings: [], summary: { ...HEALTH.summary, open: 0, high: 0, low: 0 } } })]);
    const result = await run(['domains', 'health', 'dom_01'], { fetch: api.fetch });
    expect(result.stdout).toContain(': no open findings\n\nno findings: every check passed\n');
  });

  it("exits 1 with the API's message on a 404", async () => {
    const api = fakeApi([() => ({ status: 404, body: { error: { message: 'Domain not found', code: 'not_found' } } })]);
    const result = await run(['domains', 'health', 'dom_nope'], { fetch: api.fetch });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Domain not found');
  });
});

describe('mailservice domains dmarc', () => {
  it('reads GET /domains/{id}/dmarc with --since/--until and prints the totals, ours, others and the sources', async () => {
    const api = fakeApi([() => ({ body: FIGURES })]);
    const result = await run(['domains', 'dmarc', 'dom_01', '--since', '2026-02-01', '--until', '2026-02-02'], { fetch: api.fetch });
    expect(result.status).toBe(0);
    expect(api.requests[0]!.url.pathname).toBe('/domains/dom_01/dmarc');
    expect(Object.fromEntries(api.requests[0]!.url.searchParams)).toEqual({ since: '2026-02-01', until: '2026-02-02' });
    expect(result.stdout).toBe(
      [
        'example.com 2026-02-01..2026-02-02: 3 reports (google.com, yahoo.com)',
        'totals: 120 messages, 97.5% passed DMARC',
        'ours:   100 messages, 100% passed DMARC',
        'others: 20 messages, 85% passed DMARC',
        '',
        'SOURCE IP     GROUP   MESSAGES  PASS RATE  SPF ALIGNED  DKIM ALIGNED  REPORTERS',
        '192.0.2.1     ours    100       100%       100          100           google.com,yahoo.com',
        '198.51.100.7  others  20        85%        17           17            google.com',
        'more sources follow (--json, then GET /domains/dom_01/dmarc?cursor=abc)',
        '',
      ].join('\n'),
    );
  });

  it('sends no range unless given, prints zeros for a domain without reports, and --json prints the answer', async () => {
    const empty = {
      ...FIGURES,
      totals: part(0, 0),
      ours: part(0, 0),
      others: part(0, 0),
      reports: 0,
      reporters: [],
      days: [],
      sources: [],
      has_more: false,
      next_cursor: null,
    };
    const api = fakeApi([() => ({ body: empty }), () => ({ body: empty })]);
    const text = await run(['domains', 'dmarc', 'dom_01'], { fetch: api.fetch });
    expect([...api.requests[0]!.url.searchParams.keys()]).toEqual([]);
    expect(text.stdout).toContain('example.com 2026-02-01..2026-02-02: 0 reports\ntotals: 0 messages, 0% passed DMARC\n');
    expect(text.stdout).toContain('no sources reported\n');
    const json = await run(['--json', 'domains', 'dmarc', 'dom_01'], { fetch: api.fetch });
    expect(JSON.parse(json.stdout)).toEqual(empty);
  });

  it('refuses a day that is not YYYY-MM-DD before any request (exit 2)', async () => {
    const api = fakeApi([]);
    const result = await run(['domains', 'dmarc', 'dom_01', '--since', '1/2/2026'], { fetch: api.fetch });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--since must be a UTC day, YYYY-MM-DD');
    expect(api.requests).toHaveLength(0);
  });
});
