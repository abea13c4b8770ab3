/**
 * DNS apply's write phase over an in-memory DnsHost: what is read, what is written, per-record results
 * (a refused set fails alone), settling, and how host failures become the API's errors.
 */
import { DnsHostError, type DnsHost, type DnsHostFailure } from '#shared/ports/dns-host';
import { setKey, type DnsZone, type RecordSetOutcome, type RecordSetWrite } from '#shared/domain/domains/dns-apply';
import { expectedRecords } from '#shared/domain/domains/records';
import type { DnsRecordType } from '#shared/domain/domains/record-plan';
import { AppError } from '#shared/domain/errors';
import { writeDomainRecords } from '#shared/usecases/domains/dns-apply';

const settings = { returnPathHost: 'rp.mail.test', spfInclude: 'spf.mail.test', inboundMxHost: 'inbound.mail.test' };
const domain = {
  name: 'shop.example.com',
  records: expectedRecords(
    { name: 'shop.example.com', ownershipToken: 'tok', dkimSelector: 'sel', dkimPublicKey: 'KEY', inboundSubdomain: null },
    settings,
  ),
};

class FakeHost implements DnsHost {
  readonly provider = 'route53' as const;
  readonly sets = new Map<string, string[]>();
  readonly written: RecordSetWrite[] = [];
  zones = ['example.com'];
  refuse = new Set<string>();
  fail: { at: 'findZone' | 'read' | 'write' | 'settle'; failure: DnsHostFailure } | null = null;
  settleAnswer = true;

  private check(at: 'findZone' | 'read' | 'write' | 'settle') {
    if (this.fail?.at === at) throw new DnsHostError(this.fail.failure);
  }

  async findZone(name: string) {
    this.check('findZone');
    const tried: string[] = [];
    for (const candidate of ['shop.example.com', 'example.com']) {
      tried.push(candidate);
      if (this.zones.includes(candidate)) return { zone: { id: 'Z1', name: candidate }, tried };
    }
    return { zone: null, tried: [name, ...tried.slice(1)] };
  }

  async read(_zone: DnsZone, name: string, type: DnsRecordType) {
    this.check('read');
    return [...(this.sets.get(setKey(name, type)) ?? [])];
  }

  async write(_zone: DnsZone, sets: RecordSetWrite[]): Promise<RecordSetOutcome[]> {
    this.check('write');
    return sets.map((set) => {
      if (this.refuse.has(setKey(set.name, set.type))) return { ok: false, message: 'refused: conflicting record' };
      this.written.push(set);
      this.sets.set(setKey(set.name, set.type), set.values);
      return { ok: true };
    });
  }

  async settle() {
    this.check('settle');
    return this.settleAnswer;
  }
}

test('writes each record that differs, merges SPF, reports per record; a second run writes nothing', async () => {
  const host = new FakeHost();
  host.sets.set(setKey('shop.example.com', 'TXT'), ['v=spf1 mx -all', 'other=1']);
  const first = await writeDomainRecords(host, domain);
  expect(first.zone).toEqual({ id: 'Z1', name: 'example.com' });
  expect(first.settled).toBe(true);
  expect(first.records.map((r) => [r.purpose, r.action])).toEqual([
    ['ownership', 'created'],
    ['dkim', 'created'],
    ['return_path', 'created'],
    ['spf', 'updated'],
    ['dmarc', 'created'],
  ]);
  expect(host.sets.get(setKey('shop.example.com', 'TXT'))).toEqual(['other=1', 'v=spf1 mx include:spf.mail.test -all']);

  host.written.length = 0;
  const second = await writeDomainRecords(host, domain);
  expect(second.records.every((r) => r.action === 'unchanged')).toBe(true);
  expect(second.settled).toBeNull();
  expect(host.written).toEqual([]);
});

test('a set the host refuses is that record failed; the others are written; settling that fails is only settled false', async () => {
  const host = new FakeHost();
  host.refuse.add(setKey('rp.shop.example.com', 'CNAME'));
  host.fail = { at: 'settle', failure: { kind: 'not_permitted', message: 'no GetChange' } };
  const result = await writeDomainRecords(host, domain);
  expect(result.records.find((r) => r.purpose === 'return_path')).toMatchObject({
    action: 'failed',
    message: 'refused: conflicting record',
  });
  expect(result.records.filter((r) => r.action === 'created')).toHaveLength(4);
  expect(result.settled).toBe(false);
});

test('no zone: 422 dns_zone_not_found with the names tried', async () => {
  const host = new FakeHost();
  host.zones = [];
  const error = (await writeDomainRecords(host, domain).catch((e: unknown) => e)) as AppError;
  expect(error).toBeInstanceOf(AppError);
  expect(error.status).toBe(422);
  expect(error.details).toEqual({ reason: 'dns_zone_not_found', provider: 'route53', tried: ['shop.example.com', 'example.com'] });
});

test.each([
  ['findZone', 'auth', 400, 'dns_auth_failed', false],
  ['read', 'not_permitted', 400, 'dns_permission_denied', false],
  ['findZone', 'unavailable', 502, 'dns_host_unavailable', false],
  ['write', 'unavailable', 502, 'dns_host_unavailable', true],
] as const)('a host failure in %s (%s) is %i %s', async (at, kind, status, reason, partly) => {
  const host = new FakeHost();
  host.fail = { at, failure: { kind, message: `${kind} happened` } };
  const error = (await writeDomainRecords(host, domain).catch((e: unknown) => e)) as AppError;
  expect(error).toBeInstanceOf(AppError);
  expect(error.status).toBe(status);
  expect(error.details).toMatchObject({ reason, provider: 'route53' });
  expect(error.message).toContain(`${kind} happened`);
  expect(error.message.includes('Some records may have been written')).toBe(partly);
});
