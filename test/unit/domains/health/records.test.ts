/** The DKIM, inbound MX, MTA-STS, TLS-RPT and BIMI checks of domain health. */
import type { Lookup } from '#shared/domain/domains/evaluate';
import { evaluateBimiHealth } from '#shared/domain/domains/health/bimi';
import { evaluateDkimHealth } from '#shared/domain/domains/health/dkim';
import { evaluateInboundMxHealth } from '#shared/domain/domains/health/inbound-mx';
import { evaluateMtaStsHealth } from '#shared/domain/domains/health/mta-sts';
import { evaluateTlsRptHealth } from '#shared/domain/domains/health/tls-rpt';

const txt = (...values: string[]): Lookup => ({ kind: 'found', values });
const none: Lookup = { kind: 'none' };
const failed: Lookup = { kind: 'error', message: 'ETIMEOUT' };
const types = (findings: { type: string }[]) => findings.map((f) => f.type);

describe('DKIM health', () => {
  const dkim = (lookup: Lookup) =>
    evaluateDkimHealth({ name: 'sel._domainkey.ex.com', expectedValue: 'v=DKIM1; k=rsa; p=KEY', publicKey: 'KEY', lookup });
  it('passes the domain key, finds it missing, another key or a revoked one (high, with the record)', () => {
    expect(dkim(txt('v=DKIM1; k=rsa; p=KEY'))).toEqual([]);
    expect(dkim(none)).toEqual([
      expect.objectContaining({
        type: 'dkim_missing',
        impact: 'high',
        record: { type: 'TXT', name: 'sel._domainkey.ex.com', value: 'v=DKIM1; k=rsa; p=KEY' },
      }),
    ]);
    expect(types(dkim(txt('v=DKIM1; k=rsa; p=OTHER')))).toEqual(['dkim_key_mismatch']);
    expect(dkim(txt('v=DKIM1; p='))[0]!.message).toContain('revoked');
    expect(types(dkim(failed))).toEqual(['dns_error']);
  });
});

describe('inbound MX health', () => {
  const mx = (lookup: Lookup) => evaluateInboundMxHealth({ subdomain: 'inbound.ex.com', mxHost: 'mx.svc.dev', lookup });
  it("passes the service's MX, finds it missing or pointing elsewhere (high, with the record)", () => {
    expect(mx(txt('mx.svc.dev.'))).toEqual([]);
    expect(mx(none)).toEqual([
      expect.objectContaining({
        type: 'inbound_mx_missing',
        impact: 'high',
        record: { type: 'MX', name: 'inbound.ex.com', value: '10 mx.svc.dev' },
      }),
    ]);
    expect(mx(txt('mail.other.net'))).toEqual([
      expect.objectContaining({ type: 'inbound_mx_wrong', message: expect.stringContaining('mail.other.net') }),
    ]);
    expect(types(mx(failed))).toEqual(['dns_error']);
  });
});

describe('MTA-STS health', () => {
  const sts = (lookup: Lookup) => evaluateMtaStsHealth({ domain: 'ex.com', checkedAt: '2026-11-25T10:20:30.000Z', lookup });
  it('passes a record with an id, finds it missing or invalid (low, with the record)', () => {
    expect(sts(txt('v=STSv1; id=20261125'))).toEqual([]);
    expect(sts(none)).toEqual([
      expect.objectContaining({
        type: 'mta_sts_missing',
        impact: 'low',
        record: { type: 'TXT', name: '_mta-sts.ex.com', value: 'v=STSv1; id=20261125102030' },
      }),
    ]);
    expect(types(sts(txt('v=STSv1;')))).toEqual(['mta_sts_invalid']);
    expect(types(sts(txt('v=STSv1; id=has-dash')))).toEqual(['mta_sts_invalid']);
    expect(types(sts(txt('v=STSv1; id=1', 'v=STSv1; id=2')))).toEqual(['mta_sts_invalid']);
    expect(types(sts(failed))).toEqual(['dns_error']);
  });
});

describe('TLS-RPT health', () => {
  const rpt = (lookup: Lookup) => evaluateTlsRptHealth({ domain: 'ex.com', lookup });
  it('passes a record with a mailto: or https: rua, finds it missing or invalid (low)', () => {
    expect(rpt(txt('v=TLSRPTv1; rua=mailto:tls@ex.com'))).toEqual([]);
    expect(rpt(txt('v=TLSRPTv1;rua=https://reports.ex.com/tls'))).toEqual([]);
    expect(rpt(none)).toEqual([
      expect.objectContaining({
        type: 'tls_rpt_missing',
        impact: 'low',
        record: { type: 'TXT', name: '_smtp._tls.ex.com', value: 'v=TLSRPTv1; rua=mailto:tls-reports@ex.com' },
      }),
    ]);
    expect(types(rpt(txt('v=TLSRPTv1; rua=ftp://x')))).toEqual(['tls_rpt_invalid']);
    expect(types(rpt(failed))).toEqual(['dns_error']);
  });
});

describe('BIMI health', () => {
  const bimi = (lookup: Lookup) => evaluateBimiHealth({ domain: 'ex.com', lookup });
  it('passes a record with an https logo (or the empty l= that declines), finds it missing or invalid (low)', () => {
    expect(bimi(txt('v=BIMI1; l=https://ex.com/logo.svg; a=https://ex.com/vmc.pem'))).toEqual([]);
    expect(bimi(txt('v=BIMI1; l='))).toEqual([]);
    expect(bimi(none)).toEqual([
      expect.objectContaining({
        type: 'bimi_missing',
        impact: 'low',
        record: { type: 'TXT', name: 'default._bimi.ex.com', value: 'v=BIMI1; l=https://ex.com/bimi/logo.svg' },
      }),
    ]);
    expect(types(bimi(txt('v=BIMI1; l=http://ex.com/logo.svg')))).toEqual(['bimi_invalid']);
    expect(types(bimi(failed))).toEqual(['dns_error']);
  });
});
