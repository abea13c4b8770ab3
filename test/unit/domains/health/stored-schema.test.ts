/**
 * A health stored before a check family existed (link_domain, 2026-11-29) still decodes: the missing check reads
 * as `skipped` until the next check stores it; a present one is kept; an unknown outcome is refused.
 */
import { storedHealthSchema } from '#shared/domain/domains/health/stored-schema';

const storedBefore = {
  checked_at: '2026-11-28T10:00:00.000Z',
  version: 3,
  findings: [],
  summary: {
    open: 0,
    high: 0,
    low: 0,
    spf_lookups: 1,
    checks: { spf: 'ok', dkim: 'ok', dmarc: 'ok', inbound_mx: 'skipped', mta_sts: 'ok', tls_rpt: 'ok', bimi: 'ok', reputation: 'skipped' },
  },
};

test('a stored health without the link_domain check decodes with it skipped', () => {
  expect(storedHealthSchema.parse(storedBefore).summary.checks).toMatchObject({ spf: 'ok', link_domain: 'skipped' });
});

test('a stored link_domain outcome is kept, and an unknown one refused', () => {
  const withCheck = {
    ...storedBefore,
    summary: { ...storedBefore.summary, checks: { ...storedBefore.summary.checks, link_domain: 'issues' } },
  };
  expect(storedHealthSchema.parse(withCheck).summary.checks.link_domain).toBe('issues');
  const unknown = {
    ...storedBefore,
    summary: { ...storedBefore.summary, checks: { ...storedBefore.summary.checks, link_domain: 'maybe' } },
  };
  expect(() => storedHealthSchema.parse(unknown)).toThrow();
});
