import type { Lookup } from '#shared/domain/domains/evaluate';
import { evaluateSpfHealth, parseSpf, spfTargets } from '#shared/domain/domains/health/spf';

const INCLUDE = 'spf.svc.dev';
const txt = (...values: string[]): Lookup => ({ kind: 'found', values });
const none: Lookup = { kind: 'none' };

function check(records: Record<string, Lookup>) {
  return evaluateSpfHealth({ domain: 'ex.com', include: INCLUDE, answers: new Map(Object.entries({ 'spf.svc.dev': none, ...records })) });
}
const types = (result: ReturnType<typeof check>) => result.findings.map((f) => f.type);

describe('SPF terms', () => {
  it('reads qualifiers, mechanisms, targets and modifiers', () => {
    expect(
      parseSpf('v=spf1 include:_spf.Example.com. a/24 -mx:mail.ex.com ip4:192.0.2.0/24 redirect=other.com ~all').map((t) => [
        t.qualifier,
        t.name,
        t.target,
      ]),
    ).toEqual([
      ['+', 'include', '_spf.example.com'],
      ['+', 'a', null],
      ['-', 'mx', 'mail.ex.com'],
      ['+', 'ip4', '192.0.2.0'],
      [null, 'redirect', 'other.com'],
      ['~', 'all', null],
    ]);
  });

  it('follows includes, and redirect only when there is no all; never a macro', () => {
    expect(spfTargets('v=spf1 include:a.com include:%{i}.b.com redirect=c.com ~all')).toEqual(['a.com']);
    expect(spfTargets('v=spf1 include:a.com redirect=c.com')).toEqual(['a.com', 'c.com']);
  });
});

describe('SPF health', () => {
  it('finds nothing in a good record, and counts its lookups', () => {
    const result = check({
      'ex.com': txt('v=spf1 include:spf.svc.dev mx ip4:192.0.2.1 ~all', 'google-site-verification=x'),
      'spf.svc.dev': txt('v=spf1 include:amazonses.com ~all'),
      'amazonses.com': txt('v=spf1 ip4:199.255.192.0/22 ~all'),
    });
    expect(result).toEqual({ findings: [], lookups: 3 });
  });

  it('counts the service include as one lookup when it does not resolve (a local cloud), without a finding', () => {
    expect(check({ 'ex.com': txt('v=spf1 include:spf.svc.dev ~all'), 'spf.svc.dev': none })).toEqual({ findings: [], lookups: 1 });
  });

  it('finds a missing record, with the record to publish', () => {
    const result = check({ 'ex.com': txt('google-site-verification=x') });
    expect(result.findings).toEqual([
      expect.objectContaining({
        type: 'spf_missing',
        check: 'spf',
        impact: 'high',
        status: 'open',
        record: { type: 'TXT', name: 'ex.com', value: 'v=spf1 include:spf.svc.dev ~all' },
        docs_url: expect.stringMatching(/^https:\/\//),
      }),
    ]);
    expect(types(check({ 'ex.com': none }))).toEqual(['spf_missing']);
  });

  it('finds two records', () => {
    expect(types(check({ 'ex.com': txt('v=spf1 -all', 'v=spf1 include:spf.svc.dev ~all') }))).toEqual(['spf_multiple']);
  });

  it('finds the service include missing, with the merged record', () => {
    const [found] = check({ 'ex.com': txt('v=spf1 ip4:192.0.2.1 ~all') }).findings;
    expect(found).toMatchObject({
      type: 'spf_include_missing',
      impact: 'high',
      record: { value: 'v=spf1 include:spf.svc.dev ip4:192.0.2.1 ~all' },
    });
  });

  it('finds +all (and a bare all) as high, ?all and no all as low, each with the ~all record', () => {
    for (const all of ['+all', 'all']) {
      const [found] = check({ 'ex.com': txt(`v=spf1 include:spf.svc.dev ${all}`) }).findings;
      expect(found).toMatchObject({ type: 'spf_pass_all', impact: 'high', record: { value: 'v=spf1 include:spf.svc.dev ~all' } });
    }
    expect(check({ 'ex.com': txt('v=spf1 include:spf.svc.dev ?all') }).findings).toEqual([
      expect.objectContaining({
        type: 'spf_neutral_all',
        impact: 'low',
        record: expect.objectContaining({ value: 'v=spf1 include:spf.svc.dev ~all' }),
      }),
    ]);
    expect(types(check({ 'ex.com': txt('v=spf1 include:spf.svc.dev') }))).toEqual(['spf_neutral_all']);
    expect(types(check({ 'ex.com': txt('v=spf1 include:spf.svc.dev redirect=other.com'), 'other.com': txt('v=spf1 -all') }))).toEqual([]);
  });

  it('finds 11 lookups through nested includes, and none at 10', () => {
    // ex.com: include:spf.svc.dev (1) include:a (2) mx (3); a: include:b (4) a (5) exists:%{i}.x (6); b: include:c (7) mx (8) ptr (9); c: a (10) [+ mx (11)]
    const records = (c: string) => ({
      'ex.com': txt('v=spf1 include:spf.svc.dev include:a.net mx ~all'),
      'spf.svc.dev': none,
      'a.net': txt('v=spf1 include:b.net a exists:%{i}.x.net ~all'),
      'b.net': txt('v=spf1 include:c.net mx ptr ~all'),
      'c.net': txt(c),
    });
    expect(check(records('v=spf1 a -all'))).toEqual({ findings: [], lookups: 10 });
    const eleven = check(records('v=spf1 a mx -all'));
    expect(eleven.lookups).toBe(11);
    expect(eleven.findings).toEqual([
      expect.objectContaining({ type: 'spf_too_many_lookups', impact: 'high', message: expect.stringContaining('needs 11 DNS lookups') }),
    ]);
  });

  it('finds a loop of includes, and stops counting', () => {
    const result = check({
      'ex.com': txt('v=spf1 include:spf.svc.dev include:a.net ~all'),
      'a.net': txt('v=spf1 include:b.net ~all'),
      'b.net': txt('v=spf1 include:a.net ~all'),
    });
    expect(types(result)).toEqual(['spf_include_loop']);
    expect(result.findings[0]!.message).toContain('ex.com -> a.net -> b.net -> a.net');
    expect(result.lookups).toBe(4);
    expect(types(check({ 'ex.com': txt('v=spf1 include:spf.svc.dev include:ex.com ~all') }))).toEqual(['spf_include_loop']);
  });

  it('bounds the count of a wide tree of repeated includes', () => {
    // Each level includes the next twice: walked naively, 2^depth visits.
    const levels = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`w${i}.net`, txt(`v=spf1 include:w${i + 1}.net include:w${i + 1}.net ~all`)]),
    );
    const result = check({ 'ex.com': txt('v=spf1 include:spf.svc.dev include:w0.net ~all'), ...levels, 'w12.net': txt('v=spf1 a ~all') });
    expect(result.lookups).toBe(20);
    expect(result.findings).toEqual([
      expect.objectContaining({ type: 'spf_too_many_lookups', message: expect.stringContaining('needs at least 20 DNS lookups') }),
    ]);
  });

  it('finds an include without an SPF record', () => {
    expect(types(check({ 'ex.com': txt('v=spf1 include:spf.svc.dev include:gone.net ~all'), 'gone.net': none }))).toEqual([
      'spf_include_unresolvable',
    ]);
  });

  it('answers a failed lookup as a dns_error finding, of the domain or of an include', () => {
    const root = check({ 'ex.com': { kind: 'error', message: 'ETIMEOUT' } });
    expect(root).toEqual({
      findings: [expect.objectContaining({ type: 'dns_error', check: 'spf', impact: 'low', message: expect.stringContaining('ETIMEOUT') })],
      lookups: null,
    });
    const nested = check({
      'ex.com': txt('v=spf1 include:spf.svc.dev include:slow.net ~all'),
      'slow.net': { kind: 'error', message: 'ESERVFAIL' },
    });
    expect(nested.findings).toEqual([expect.objectContaining({ type: 'dns_error', message: expect.stringContaining('slow.net') })]);
    const unfetched = check({ 'ex.com': txt('v=spf1 include:spf.svc.dev include:later.net ~all') });
    expect(unfetched.findings).toEqual([
      expect.objectContaining({ type: 'dns_error', message: expect.stringContaining('did not finish in time') }),
    ]);
  });
});
