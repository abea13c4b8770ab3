/** Domain health's DMARC findings suggest the domain's report address in rua= (and the RFC 7489 authorisation record when it is elsewhere). */
import { evaluateDmarcHealth } from '#shared/domain/domains/health/dmarc';
import { groupOf } from '#shared/domain/dmarc/our-sending';

const found = (value: string) => ({ kind: 'found' as const, values: [value] });

describe('the DMARC rua suggestion', () => {
  it('names the report address when the domain has one', () => {
    const [missing] = evaluateDmarcHealth({ domain: 'example.com', lookup: { kind: 'none' }, reportAddress: 'dmarc@inbound.example.com' });
    expect(missing!.record!.value).toBe('v=DMARC1; p=none; rua=mailto:dmarc@inbound.example.com');
    const noRua = evaluateDmarcHealth({
      domain: 'example.com',
      lookup: found('v=DMARC1; p=reject'),
      reportAddress: 'dmarc@inbound.example.com',
    }).find((f) => f.type === 'dmarc_no_reporting')!;
    expect(noRua.record!.value).toBe('v=DMARC1; p=reject; rua=mailto:dmarc@inbound.example.com');
    expect(noRua.message).toContain('the service reads the reports sent there');
    expect(noRua.message).not.toContain('_report._dmarc');
  });

  it('asks for the authorisation record when the address is outside the domain, and suggests turning reports on without one', () => {
    const elsewhere = evaluateDmarcHealth({
      domain: 'shop.test',
      lookup: found('v=DMARC1; p=reject'),
      reportAddress: 'r@inbound.example.com',
    }).find((f) => f.type === 'dmarc_no_reporting')!;
    expect(elsewhere.message).toContain('shop.test._report._dmarc.inbound.example.com TXT "v=DMARC1"');
    const none = evaluateDmarcHealth({ domain: 'shop.test', lookup: found('v=DMARC1; p=reject') }).find(
      (f) => f.type === 'dmarc_no_reporting',
    )!;
    expect(none.record!.value).toBe('v=DMARC1; p=reject; rua=mailto:dmarc@shop.test');
    expect(none.message).toContain('Turn on dmarc_reports');
  });
});

describe('ours or others', () => {
  const ours = { domain: 'example.com', selector: 'svc1' };
  const record = (dkim: { domain: string; selector?: string; result: string }[], spf: { domain: string; result: string }[]) => ({
    auth_results: { dkim, spf },
  });
  it.each([
    ['DKIM d=domain with our selector', record([{ domain: 'Example.com', selector: 'SVC1', result: 'pass' }], []), 'ours'],
    ['SPF for rp.<domain>', record([], [{ domain: 'rp.example.com', result: 'pass' }]), 'ours'],
    ["SPF for SES's own MAIL FROM", record([], [{ domain: 'eu-west-1.amazonses.com', result: 'pass' }]), 'ours'],
    [
      'DKIM d=domain with another selector (its own servers)',
      record([{ domain: 'example.com', selector: 'google', result: 'pass' }], []),
      'others',
    ],
    [
      'our selector failing',
      record([{ domain: 'example.com', selector: 'svc1', result: 'fail' }], [{ domain: 'rp.example.com', result: 'softfail' }]),
      'others',
    ],
    ['a look-alike of amazonses.com', record([], [{ domain: 'evilamazonses.com', result: 'pass' }]), 'others'],
    ['DKIM d=amazonses.com alone (any SES customer)', record([{ domain: 'amazonses.com', selector: 'x', result: 'pass' }], []), 'others'],
  ])('%s: %s', (_what, input, group) => {
    expect(groupOf(input, ours)).toBe(group);
  });
});
