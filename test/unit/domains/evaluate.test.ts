import type { DnsRecord } from '#shared/domain/domains/domain';
import { domainStatusAfterCheck, evaluateDkim, evaluateReturnPath, evaluateSpf } from '#shared/domain/domains/evaluate';
import { expectedRecords } from '#shared/domain/domains/records';

const settings = { returnPathHost: 'rp.svc.dev', spfInclude: 'spf.svc.dev', inboundMxHost: 'mx.svc.dev' };
const records = expectedRecords(
  { name: 'ex.com', ownershipToken: 'tok', dkimSelector: 'sel', dkimPublicKey: 'KEY', inboundSubdomain: null },
  settings,
);
const of = (purpose: string) => records.find((r) => r.purpose === purpose)!;

describe('SPF evaluation', () => {
  it('needs exactly one v=spf1 record containing the include', () => {
    expect(evaluateSpf(of('spf'), { kind: 'found', values: ['v=spf1 include:spf.svc.dev -all', 'other=1'] }, 'spf.svc.dev').status).toBe(
      'verified',
    );
    expect(evaluateSpf(of('spf'), { kind: 'found', values: ['other=1'] }, 'spf.svc.dev').status).toBe('not_found');
    const two = evaluateSpf(of('spf'), { kind: 'found', values: ['v=spf1 -all', 'V=SPF1 include:spf.svc.dev ~all'] }, 'spf.svc.dev');
    expect(two).toMatchObject({ status: 'invalid', found: ['v=spf1 -all', 'V=SPF1 include:spf.svc.dev ~all'] });
    expect(two.message).toMatch(/Found 2 SPF records/);
  });

  it('suggests the merged record when the include is missing', () => {
    const result = evaluateSpf(of('spf'), { kind: 'found', values: ['v=spf1 ip4:1.2.3.4 ~all'] }, 'spf.svc.dev');
    expect(result.status).toBe('invalid');
    expect(result.message).toContain('"v=spf1 include:spf.svc.dev ip4:1.2.3.4 ~all"');
  });

  it('does not take include:spf.svc.dev.evil for the include', () => {
    expect(evaluateSpf(of('spf'), { kind: 'found', values: ['v=spf1 include:spf.svc.dev.evil.com ~all'] }, 'spf.svc.dev').status).toBe(
      'invalid',
    );
  });
});

describe('DKIM and return path', () => {
  it('compares the p= key exactly, ignoring whitespace', () => {
    expect(evaluateDkim(of('dkim'), { kind: 'found', values: ['v=DKIM1; p=K EY'] }, 'KEY').status).toBe('verified');
    expect(evaluateDkim(of('dkim'), { kind: 'found', values: ['v=DKIM1; p=OTHER'] }, 'KEY').status).toBe('invalid');
    expect(evaluateDkim(of('dkim'), { kind: 'error', message: 'ETIMEOUT' }, 'KEY').status).toBe('temporary_failure');
  });

  it('accepts the CNAME target case-insensitively with a trailing dot', () => {
    expect(evaluateReturnPath(of('return_path'), { kind: 'found', values: ['RP.SVC.DEV.'] }).status).toBe('verified');
    expect(evaluateReturnPath(of('return_path'), { kind: 'found', values: ['x.dev'] })).toMatchObject({
      status: 'invalid',
      found: ['x.dev'],
    });
  });
});

describe('domain status', () => {
  const verified = (r: DnsRecord): DnsRecord => ({ ...r, status: 'verified' });
  it('is verified when every required record is, whatever DMARC says', () => {
    expect(
      domainStatusAfterCheck(
        'pending',
        records.map((r) => (r.required ? verified(r) : { ...r, status: 'not_found' })),
      ),
    ).toBe('verified');
  });
  it('goes failed only after having been verified, and never on a temporary failure', () => {
    const broken = records.map((r) => (r.purpose === 'spf' ? { ...r, status: 'not_found' as const } : verified(r)));
    expect(domainStatusAfterCheck('pending', broken)).toBe('pending');
    expect(domainStatusAfterCheck('verified', broken)).toBe('failed');
    const flaky = records.map((r) => (r.purpose === 'spf' ? { ...r, status: 'temporary_failure' as const } : verified(r)));
    expect(domainStatusAfterCheck('verified', flaky)).toBe('verified');
  });
});
