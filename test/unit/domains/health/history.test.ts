import { FINDING_TYPES, finding, dnsError, type HealthFinding } from '#shared/domain/domains/health/finding';
import type { HealthSummary } from '#shared/domain/domains/health';
import { FIXED_KEPT_DAYS, findingKey, hasChanges, mergeHealth, type StoredHealth } from '#shared/domain/domains/health/history';
import { HEALTHY_CHECKS } from '../../usecases/fake-domain-health';

const T1 = '2026-11-20T10:00:00.000Z';
const T2 = '2026-11-21T10:00:00.000Z';
const T3 = '2026-11-22T10:00:00.000Z';
const summary = (open: number): HealthSummary => ({
  open,
  high: 0,
  low: 0,
  spf_lookups: 1,
  checks: HEALTHY_CHECKS,
});
const check = (checked_at: string, findings: HealthFinding[]) => ({ checked_at, findings, summary: summary(findings.length) });

const dmarcMissing = finding('dmarc_missing', 'no DMARC record');
const bimiMissing = finding('bimi_missing', 'no BIMI record');
const spfMissing = finding('spf_missing', 'no SPF record');

function stored(previous: StoredHealth | null, at: string, findings: HealthFinding[]) {
  return mergeHealth(previous, check(at, findings));
}

describe('mergeHealth: a check merged with the last stored one', () => {
  it('the first check opens every finding, first seen now, version 1', () => {
    const { health, changes } = stored(null, T1, [dmarcMissing, bimiMissing]);
    expect(health.version).toBe(1);
    expect(health.findings.map((f) => [f.type, f.status, f.first_seen_at, f.fixed_at])).toEqual([
      ['dmarc_missing', 'open', T1, null],
      ['bimi_missing', 'open', T1, null],
    ]);
    expect(changes.opened.map(findingKey)).toEqual(['dmarc:dmarc_missing', 'bimi:bimi_missing']);
    expect(changes.fixed).toEqual([]);
    expect(health.summary).toMatchObject({ open: 2, high: 1, low: 1 });
  });

  it('a finding still there keeps its first-seen time and is no change', () => {
    const first = stored(null, T1, [dmarcMissing]).health;
    const { health, changes } = stored(first, T2, [dmarcMissing]);
    expect(health.findings).toEqual([expect.objectContaining({ type: 'dmarc_missing', status: 'open', first_seen_at: T1 })]);
    expect(hasChanges(changes)).toBe(false);
    expect(health.version).toBe(2);
  });

  it('a finding gone is fixed (fixed_at now), listed after the open ones, and is a change', () => {
    const first = stored(null, T1, [dmarcMissing, bimiMissing]).health;
    const { health, changes } = stored(first, T2, [bimiMissing]);
    expect(health.findings.map((f) => [f.type, f.status, f.fixed_at])).toEqual([
      ['bimi_missing', 'open', null],
      ['dmarc_missing', 'fixed', T2],
    ]);
    expect(changes.fixed.map((f) => f.type)).toEqual(['dmarc_missing']);
    expect(changes.opened).toEqual([]);
    expect(health.summary).toMatchObject({ open: 1, high: 0, low: 1 });
  });

  it(`a fixed finding is kept ${FIXED_KEPT_DAYS} days, then dropped; fixed again is no new change`, () => {
    let health = stored(null, T1, [dmarcMissing]).health;
    health = stored(health, T2, []).health;
    const later = new Date(Date.parse(T2) + FIXED_KEPT_DAYS * 86_400_000).toISOString();
    const kept = stored(health, later, []);
    expect(kept.health.findings.map((f) => f.status)).toEqual(['fixed']);
    expect(hasChanges(kept.changes)).toBe(false);
    const after = new Date(Date.parse(later) + 1000).toISOString();
    expect(stored(kept.health, after, []).health.findings).toEqual([]);
  });

  it('a finding that comes back after it was fixed is open again, first seen anew', () => {
    let health = stored(null, T1, [dmarcMissing]).health;
    health = stored(health, T2, []).health;
    const { health: back, changes } = stored(health, T3, [dmarcMissing]);
    expect(back.findings).toEqual([expect.objectContaining({ type: 'dmarc_missing', status: 'open', first_seen_at: T3, fixed_at: null })]);
    expect(changes.opened.map((f) => f.type)).toEqual(['dmarc_missing']);
  });

  it('a lookup that failed fixes nothing: the open findings of that check stay, and dns_error is never a change', () => {
    const first = stored(null, T1, [dmarcMissing, spfMissing]).health;
    const { health, changes } = stored(first, T2, [dnsError('dmarc', '_dmarc.ex.com', { message: 'timeout' }), spfMissing]);
    expect(health.findings.map((f) => [f.type, f.check, f.status])).toEqual([
      ['spf_missing', 'spf', 'open'],
      ['dmarc_missing', 'dmarc', 'open'],
      ['dns_error', 'dmarc', 'open'],
    ]);
    expect(hasChanges(changes)).toBe(false);
    // The next check answers again, without the finding: fixed now; the dns_error simply goes.
    const next = stored(health, T3, [spfMissing]);
    expect(next.changes.fixed.map(findingKey)).toEqual(['dmarc:dmarc_missing']);
    expect(next.health.findings.map((f) => [f.type, f.status])).toEqual([
      ['spf_missing', 'open'],
      ['dmarc_missing', 'fixed'],
    ]);
  });

  it('orders open before fixed, high impact before low', () => {
    let health = stored(null, T1, [bimiMissing, spfMissing]).health;
    health = stored(health, T2, [bimiMissing, dmarcMissing]).health;
    expect(health.findings.map((f) => `${f.status}:${FINDING_TYPES[f.type].impact}:${f.type}`)).toEqual([
      'open:high:dmarc_missing',
      'open:low:bimi_missing',
      'fixed:high:spf_missing',
    ]);
  });
});
