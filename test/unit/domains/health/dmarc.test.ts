import type { Lookup } from '#shared/domain/domains/evaluate';
import { evaluateDmarcHealth } from '#shared/domain/domains/health/dmarc';

const txt = (...values: string[]): Lookup => ({ kind: 'found', values });
const check = (lookup: Lookup) => evaluateDmarcHealth({ domain: 'ex.com', lookup });
const types = (lookup: Lookup) => check(lookup).map((f) => f.type);

describe('DMARC health', () => {
  it('finds nothing in an enforcing record with reports and relaxed alignment', () => {
    expect(check(txt('v=DMARC1; p=reject; rua=mailto:dmarc@ex.com; adkim=s'))).toEqual([]);
    expect(check(txt('v=DMARC1;p=quarantine;rua=mailto:d@ex.com;aspf=r', 'unrelated'))).toEqual([]);
  });

  it('finds a missing record (high), with the record to publish', () => {
    const expected = [
      expect.objectContaining({
        type: 'dmarc_missing',
        check: 'dmarc',
        impact: 'high',
        status: 'open',
        record: { type: 'TXT', name: '_dmarc.ex.com', value: 'v=DMARC1; p=none; rua=mailto:dmarc@ex.com' },
      }),
    ];
    expect(check({ kind: 'none' })).toEqual(expected);
    expect(check(txt('v=spf1 -all'))).toEqual(expected);
  });

  it('finds p=none (low), recommending quarantine with the other tags kept', () => {
    expect(check(txt('v=DMARC1; p=none; rua=mailto:dmarc@ex.com; pct=100'))).toEqual([
      expect.objectContaining({
        type: 'dmarc_policy_none',
        impact: 'low',
        record: { type: 'TXT', name: '_dmarc.ex.com', value: 'v=DMARC1; p=quarantine; rua=mailto:dmarc@ex.com; pct=100' },
      }),
    ]);
  });

  it('finds no rua (low), with the record that adds one', () => {
    expect(check(txt('v=DMARC1; p=reject'))).toEqual([
      expect.objectContaining({
        type: 'dmarc_no_reporting',
        impact: 'low',
        record: expect.objectContaining({ value: 'v=DMARC1; p=reject; rua=mailto:dmarc@ex.com' }),
      }),
    ]);
    expect(types(txt('v=DMARC1; p=none'))).toEqual(['dmarc_policy_none', 'dmarc_no_reporting']);
  });

  it('notes strict SPF alignment (the return path is rp.<domain>); strict DKIM alignment is fine', () => {
    expect(check(txt('v=DMARC1; p=reject; rua=mailto:d@ex.com; aspf=s'))).toEqual([
      expect.objectContaining({
        type: 'dmarc_spf_alignment_strict',
        impact: 'low',
        record: expect.objectContaining({ value: 'v=DMARC1; p=reject; rua=mailto:d@ex.com; aspf=r' }),
      }),
    ]);
    expect(types(txt('v=DMARC1; p=reject; rua=mailto:d@ex.com; adkim=s; aspf=r'))).toEqual([]);
  });

  it('finds two records, and a record without a valid policy', () => {
    expect(types(txt('v=DMARC1; p=none', 'v=DMARC1; p=reject'))).toEqual(['dmarc_multiple']);
    expect(types(txt('v=DMARC1; rua=mailto:d@ex.com'))).toEqual(['dmarc_invalid']);
    expect(types(txt('v=DMARC1; p=block'))).toEqual(['dmarc_invalid']);
    expect(types(txt('v=DMARC1; p=none; p=reject'))).toEqual(['dmarc_invalid']);
  });

  it('answers a failed lookup as a dns_error finding', () => {
    expect(check({ kind: 'error', message: 'ESERVFAIL' })).toEqual([
      expect.objectContaining({ type: 'dns_error', check: 'dmarc', message: expect.stringContaining('_dmarc.ex.com') }),
    ]);
  });
});
