/** The spam verdict from the sender's authentication (shared/domain/inbound/spam.ts). */
import type { Authentication } from '#shared/domain/inbound/authentication';
import { spamVerdict } from '#shared/domain/inbound/spam';

type Checks = Omit<Authentication, 'spam_reasons'>;

function auth(overrides: Partial<Checks> = {}): Authentication {
  return {
    spf: { result: 'pass', domain: 'example.com' },
    dkim: [{ result: 'pass', domain: 'example.com', selector: 's1', aligned: true }],
    dmarc: { result: 'pass', domain: 'example.com', policy: 'reject' },
    ...overrides,
    spam_reasons: [],
  };
}

const dkimFail = [{ result: 'fail' as const, domain: 'example.com', selector: 's1', aligned: true }];

describe('spamVerdict', () => {
  it('passes mail that authenticates', () => {
    expect(spamVerdict(auth())).toEqual({ status: 'not_spam', reasons: [] });
  });

  it.each(['reject', 'quarantine'] as const)('calls a DMARC failure spam when the policy is %s, naming the domain and policy', (policy) => {
    const verdict = spamVerdict(auth({ dmarc: { result: 'fail', domain: 'example.com', policy } }));
    expect(verdict.status).toBe('spam');
    expect(verdict.reasons).toHaveLength(1);
    expect(verdict.reasons[0]).toContain('example.com');
    expect(verdict.reasons[0]).toContain(policy);
  });

  it('does not call a DMARC failure spam when the policy is none (or unknown)', () => {
    expect(spamVerdict(auth({ dmarc: { result: 'fail', domain: 'example.com', policy: 'none' }, dkim: dkimFail })).status).toBe('not_spam');
    expect(spamVerdict(auth({ dmarc: { result: 'fail', domain: 'example.com', policy: null }, dkim: dkimFail })).status).toBe('not_spam');
  });

  it('does not call other DMARC results spam, even with a reject policy', () => {
    for (const result of ['none', 'temperror', 'permerror', 'neutral'] as const) {
      expect(spamVerdict(auth({ dmarc: { result, domain: 'example.com', policy: 'reject' } })).status).toBe('not_spam');
    }
  });

  it('does not call an SPF failure spam when a DKIM signature passes', () => {
    const dkim = [...dkimFail, { result: 'pass' as const, domain: 'other.example', selector: 's2', aligned: false }];
    expect(spamVerdict(auth({ spf: { result: 'fail', domain: 'example.com' }, dkim }))).toEqual({ status: 'not_spam', reasons: [] });
  });

  it('calls an SPF failure spam when no DKIM signature passes (failed or none)', () => {
    for (const dkim of [dkimFail, []]) {
      const verdict = spamVerdict(
        auth({ spf: { result: 'fail', domain: 'bounce.example.com' }, dkim, dmarc: { result: 'none', domain: null, policy: null } }),
      );
      expect(verdict.status).toBe('spam');
      expect(verdict.reasons).toEqual([expect.stringContaining('bounce.example.com')]);
    }
  });

  it('does not call an SPF softfail spam', () => {
    expect(spamVerdict(auth({ spf: { result: 'softfail', domain: 'example.com' }, dkim: [] })).status).toBe('not_spam');
  });

  it('gives both reasons when DMARC and SPF both fail', () => {
    const verdict = spamVerdict(
      auth({ spf: { result: 'fail', domain: null }, dkim: [], dmarc: { result: 'fail', domain: null, policy: 'quarantine' } }),
    );
    expect(verdict.status).toBe('spam');
    expect(verdict.reasons).toHaveLength(2);
  });
});
