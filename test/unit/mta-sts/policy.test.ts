import { hostingRecords, type StoredHosting } from '#shared/domain/domains/mta-sts/hosting';
import { mtaStsInputSchema, policyDomainOfHost, policyIdOf, policyText } from '#shared/domain/domains/mta-sts/policy';
import { servePolicy } from '#shared/usecases/domains/mta-sts/serve-policy';
import { InMemoryHosting } from './fakes';

const hosting = (fields: Partial<StoredHosting> = {}): StoredHosting => ({
  policy_domain: 'inbound.ex.com',
  domain_id: 'dom_1',
  account_id: 'acc_1',
  mode: 'enforce',
  max_age: 604_800,
  policy_id: '202611251000001',
  mx: ['mx.svc.dev'],
  status: 'active',
  message: null,
  attempt: 1,
  certificate_arn: 'arn:aws:acm:us-east-1:0:certificate/1',
  stale_certificate_arn: null,
  validation_record: { name: '_a.mta-sts.inbound.ex.com', value: '_b.acm-validations.aws' },
  target: 'd-1.execute-api.us-east-1.amazonaws.com',
  dns: null,
  attempt_started_at: '2026-11-25T10:00:00.000Z',
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
  version: 3,
  plan_slot: true,
  ...fields,
});

describe('the policy (RFC 8461 section 3.2)', () => {
  it('is version first, then mode, one mx line per host and max_age, CRLF-separated', () => {
    expect(policyText({ mode: 'enforce', mxHosts: ['mx.svc.dev'], maxAgeS: 604_800 })).toBe(
      'version: STSv1\r\nmode: enforce\r\nmx: mx.svc.dev\r\nmax_age: 604800\r\n',
    );
    expect(policyText({ mode: 'none', mxHosts: ['mx.svc.dev'], maxAgeS: 86_400 })).toBe(
      'version: STSv1\r\nmode: none\r\nmax_age: 86400\r\n',
    );
  });

  it('ids are 1-32 letters and digits, different for two changes in one second', () => {
    const a = policyIdOf('2026-11-25T10:00:00.123Z', 1);
    const b = policyIdOf('2026-11-25T10:00:00.456Z', 2);
    expect(a).toMatch(/^[A-Za-z0-9]{1,32}$/);
    expect(a).not.toBe(b);
  });

  it('the policy domain of a host is what follows mta-sts. (case, trailing dot and port ignored)', () => {
    expect(policyDomainOfHost('MTA-STS.Inbound.Ex.com.')).toBe('inbound.ex.com');
    expect(policyDomainOfHost('mta-sts.inbound.ex.com:443')).toBe('inbound.ex.com');
    expect(policyDomainOfHost('www.ex.com')).toBeNull();
    expect(policyDomainOfHost('mta-sts.')).toBeNull();
  });

  it('the input: a mode of the three, max_age a whole number of seconds from a day to a year', () => {
    expect(mtaStsInputSchema.safeParse({ mode: 'testing' }).success).toBe(true);
    expect(mtaStsInputSchema.safeParse({ mode: 'strict' }).success).toBe(false);
    expect(mtaStsInputSchema.safeParse({ mode: 'enforce', max_age: 3600 }).success).toBe(false);
    expect(mtaStsInputSchema.safeParse({ mode: 'enforce', max_age: 31_557_601 }).success).toBe(false);
    expect(mtaStsInputSchema.safeParse({ mode: 'enforce', max_age: 86_400.5 }).success).toBe(false);
    expect(mtaStsInputSchema.safeParse({ mode: 'enforce', extra: 1 }).success).toBe(false);
  });

  it('the records: the policy TXT verified only when exactly one STSv1 record names this id', () => {
    const checked = (policy: string[]) =>
      hostingRecords(
        hosting({
          dns: { checked_at: 'x', host_cname: ['d-1.execute-api.us-east-1.amazonaws.com.'], policy_txt: policy, tls_rpt_txt: [] },
        }),
      );
    const status = (records: ReturnType<typeof checked>, purpose: string) => records.find((record) => record.purpose === purpose)!.status;
    expect(status(checked(['v=STSv1; id=202611251000001']), 'policy')).toBe('verified');
    expect(status(checked(['v=STSv1; id=202611251000001']), 'policy_host')).toBe('verified');
    expect(status(checked(['v=STSv1; id=2026112510000012']), 'policy')).toBe('pending');
    expect(status(checked(['v=STSv1; id=202611251000001', 'v=STSv1; id=x']), 'policy')).toBe('pending');
    expect(status(checked(['v=spf1 -all', 'v=STSv1;id=202611251000001']), 'policy')).toBe('verified');
  });
});

describe('serving (the MTA-STS function)', () => {
  async function serve(stored: StoredHosting | null, host: string | undefined) {
    const repository = new InMemoryHosting();
    if (stored) await repository.create({ ...stored, version: 1 }, new Date(), 1);
    return servePolicy({ mtaStsHosting: repository }, host);
  }

  it('answers the policy as text/plain for a host whose certificate is issued (pending_dns, active)', async () => {
    for (const status of ['active', 'pending_dns'] as const) {
      const answer = await serve(hosting({ status }), 'mta-sts.inbound.ex.com');
      expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      expect(answer.body).toBe('version: STSv1\r\nmode: enforce\r\nmx: mx.svc.dev\r\nmax_age: 604800\r\n');
    }
  });

  it('404 for no policy, a certificate not issued, a failed or removing one, another host, or none', async () => {
    for (const status of ['pending_certificate', 'failed', 'removing'] as const)
      expect((await serve(hosting({ status }), 'mta-sts.inbound.ex.com')).status).toBe(404);
    expect((await serve(null, 'mta-sts.inbound.ex.com')).status).toBe(404);
    expect((await serve(hosting(), 'mta-sts.inbound.other.com')).status).toBe(404);
    expect((await serve(hosting(), 'inbound.ex.com')).status).toBe(404);
    expect((await serve(hosting(), undefined)).status).toBe(404);
  });
});
