/** dns_plan of an imported domain: add, update (SPF merged, never a second), keep, done; unchecked when DNS failed. */
import { expectedRecords } from '#shared/domain/domains/records';
import type { Lookup } from '#shared/domain/domains/evaluate';
import { mergeSpf, mergeSpfRecords, type DnsChange, type DnsRecordType, type PublishedDns } from '#shared/domain/domains/record-plan';
import { dnsQueries, planDns } from '#shared/domain/imports/dns-plan';
import type { SourceDnsRecord } from '#shared/domain/imports/source';

const DOMAIN = 'example.com';
const INCLUDE = 'spf.mail.test';
const required = expectedRecords(
  { name: DOMAIN, ownershipToken: 'tok123', dkimSelector: 'svc1', dkimPublicKey: 'MIIBKEY', inboundSubdomain: null },
  { returnPathHost: 'rp.mail.test', spfInclude: INCLUDE, inboundMxHost: 'mx.mail.test' },
);
const OURS = {
  ownership: 'service-verification=tok123',
  dkim: 'v=DKIM1; k=rsa; p=MIIBKEY',
  spf: `v=spf1 include:${INCLUDE} ~all`,
  dmarc: 'v=DMARC1; p=none; rua=mailto:dmarc@example.com',
};

/** What DNS answers: `"TXT example.com"` -> values; anything not listed is none. */
function dns(records: Record<string, string[] | Lookup>): PublishedDns & { asked: string[] } {
  const asked: string[] = [];
  const published = (host: string, type: DnsRecordType): Lookup => {
    asked.push(`${type} ${host}`);
    const found = records[`${type} ${host}`];
    if (found === undefined) return { kind: 'none' };
    return Array.isArray(found) ? (found.length ? { kind: 'found', values: found } : { kind: 'none' }) : found;
  };
  return Object.assign(published, { asked });
}

const plan = (
  records: Record<string, string[] | Lookup>,
  providerRecords: SourceDnsRecord[] = [],
  provider: 'sendgrid' | 'postmark' | 'mailgun' = 'postmark',
) => planDns({ domain: DOMAIN, required, published: dns(records), providerRecords, provider });

const row = (changes: DnsChange[], purpose: DnsChange['purpose'], action?: DnsChange['action']) =>
  changes.find((change) => change.purpose === purpose && (action === undefined || change.action === action));

describe('mergeSpf', () => {
  it.each([
    ['v=spf1 a mx include:spf.mtasv.net ~all', `v=spf1 a mx include:spf.mtasv.net include:${INCLUDE} ~all`],
    ['v=spf1 include:sendgrid.net -all', `v=spf1 include:sendgrid.net include:${INCLUDE} -all`],
    ['v=spf1 mx ?all', `v=spf1 mx include:${INCLUDE} ?all`],
    ['v=spf1 +all', `v=spf1 include:${INCLUDE} +all`],
    ['v=spf1 a redirect=_spf.example.com', `v=spf1 a include:${INCLUDE} redirect=_spf.example.com`],
    ['v=spf1 mx -all exp=explain._spf.example.com', `v=spf1 mx include:${INCLUDE} -all exp=explain._spf.example.com`],
    ['v=spf1 ip4:192.0.2.1', `v=spf1 ip4:192.0.2.1 include:${INCLUDE}`],
    ['v=spf1', `v=spf1 include:${INCLUDE}`],
    ['  v=spf1   mx    ~all ', `v=spf1 mx include:${INCLUDE} ~all`],
  ])('%s -> %s', (existing, merged) => {
    expect(mergeSpf(existing, INCLUDE)).toBe(merged);
  });

  it('leaves a record that includes us already (any case, with +) as it is', () => {
    expect(mergeSpf(`v=spf1 include:${INCLUDE} ~all`, INCLUDE)).toBe(`v=spf1 include:${INCLUDE} ~all`);
    expect(mergeSpf('v=spf1 +include:SPF.Mail.Test -all', INCLUDE)).toBe('v=spf1 +include:SPF.Mail.Test -all');
  });

  it('merges several records into one: the first, the others mechanisms it lacks, and ours before its all', () => {
    expect(
      mergeSpfRecords(['v=spf1 include:_spf.google.com ~all', 'v=spf1 include:sendgrid.net include:_spf.google.com -all'], INCLUDE),
    ).toBe(`v=spf1 include:_spf.google.com include:sendgrid.net include:${INCLUDE} ~all`);
    expect(mergeSpfRecords(['v=spf1 mx ~all', `v=spf1 include:${INCLUDE} -all`], INCLUDE)).toBe(`v=spf1 mx include:${INCLUDE} ~all`);
  });
});

describe('planDns', () => {
  it('adds every record of a domain with nothing published', () => {
    const result = plan({});
    expect(result.checked).toBe(true);
    expect(result.changes.map((change) => [change.action, change.type, change.host, change.purpose])).toEqual([
      ['add', 'TXT', '_service.example.com', 'ownership'],
      ['add', 'TXT', 'svc1._domainkey.example.com', 'dkim'],
      ['add', 'CNAME', 'rp.example.com', 'return_path'],
      ['add', 'TXT', 'example.com', 'spf'],
      ['add', 'TXT', '_dmarc.example.com', 'dmarc'],
    ]);
    expect(row(result.changes, 'spf')).toMatchObject({ value: OURS.spf, current: null });
    expect(result.changes.every((change) => change.current === null)).toBe(true);
  });

  it('marks done what is published exactly (TXT chunks spaced differently, CNAME case and trailing dot)', () => {
    const result = plan({
      'TXT _service.example.com': [OURS.ownership],
      'TXT svc1._domainkey.example.com': ['v=DKIM1;k=rsa;  p=MIIBKEY'],
      'CNAME rp.example.com': ['RP.Mail.Test.'],
      'TXT example.com': [`v=spf1 mx include:${INCLUDE} -all`],
      'TXT _dmarc.example.com': [OURS.dmarc],
    });
    expect(result.changes.map((change) => change.action)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(row(result.changes, 'spf')).toMatchObject({
      value: `v=spf1 mx include:${INCLUDE} -all`,
      current: `v=spf1 mx include:${INCLUDE} -all`,
    });
  });

  it.each([
    ['v=spf1 include:spf.mtasv.net ~all', `v=spf1 include:spf.mtasv.net include:${INCLUDE} ~all`],
    ['v=spf1 a -all', `v=spf1 a include:${INCLUDE} -all`],
    ['v=spf1 mx ?all', `v=spf1 mx include:${INCLUDE} ?all`],
    ['v=spf1 redirect=_spf.example.com', `v=spf1 include:${INCLUDE} redirect=_spf.example.com`],
  ])('updates the one SPF record %s by inserting our include before its end', (existing, merged) => {
    const result = plan({ 'TXT example.com': [existing] });
    expect(row(result.changes, 'spf')).toEqual({
      action: 'update',
      type: 'TXT',
      host: 'example.com',
      value: merged,
      purpose: 'spf',
      current: existing,
      note: expect.stringMatching(/never publish a second SPF record/),
    });
    expect(result.changes.filter((change) => change.purpose === 'spf')).toHaveLength(1);
  });

  it('merges two published SPF records into one, with a note, even when one includes us already', () => {
    const result = plan({
      'TXT example.com': ['v=spf1 include:_spf.google.com ~all', `v=spf1 include:${INCLUDE} ~all`, 'google-site-verification=abc'],
    });
    const spf = row(result.changes, 'spf')!;
    expect(spf).toMatchObject({
      action: 'update',
      value: `v=spf1 include:_spf.google.com include:${INCLUDE} ~all`,
      current: `v=spf1 include:_spf.google.com ~all | v=spf1 include:${INCLUDE} ~all`,
    });
    expect(spf.note).toMatch(/has 2 SPF records.*exactly one.*delete the others/);
    expect(row(result.changes, 'other')).toEqual({
      action: 'keep',
      type: 'TXT',
      host: 'example.com',
      value: 'google-site-verification=abc',
      purpose: 'other',
      current: 'google-site-verification=abc',
      note: expect.any(String),
    });
  });

  it('keeps the other TXT records of the apex beside an added SPF record', () => {
    const result = plan({ 'TXT example.com': ['google-site-verification=abc', 'MS=ms123'] });
    expect(row(result.changes, 'spf')).toMatchObject({ action: 'add', value: OURS.spf });
    expect(result.changes.filter((change) => change.purpose === 'other').map((change) => [change.action, change.value])).toEqual([
      ['keep', 'google-site-verification=abc'],
      ['keep', 'MS=ms123'],
    ]);
  });

  it('updates a CNAME pointing elsewhere and a different value of ours, showing what is there', () => {
    const result = plan({
      'CNAME rp.example.com': ['pm.mtasv.net'],
      'TXT _service.example.com': ['service-verification=old'],
      'TXT svc1._domainkey.example.com': ['v=DKIM1; k=rsa; p=OTHER'],
    });
    expect(row(result.changes, 'return_path')).toMatchObject({
      action: 'update',
      value: 'rp.mail.test',
      current: 'pm.mtasv.net',
      note: expect.stringMatching(/points to pm\.mtasv\.net/),
    });
    expect(row(result.changes, 'ownership')).toMatchObject({
      action: 'update',
      value: OURS.ownership,
      current: 'service-verification=old',
    });
    expect(row(result.changes, 'dkim')).toMatchObject({ action: 'update', value: OURS.dkim, current: 'v=DKIM1; k=rsa; p=OTHER' });
  });

  it('keeps an existing DMARC policy rather than replacing it with ours', () => {
    const result = plan({ 'TXT _dmarc.example.com': ['v=DMARC1; p=reject; rua=mailto:d@example.com'] });
    expect(row(result.changes, 'dmarc')).toMatchObject({
      action: 'keep',
      value: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
      current: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
    });
  });

  it('keeps the provider records that are published, while mail still goes through it; not the SPF record we merge into', () => {
    const postmark: SourceDnsRecord[] = [
      { type: 'TXT', host: 'example.com', value: 'v=spf1 a mx include:spf.mtasv.net ~all' },
      { type: 'TXT', host: '20240101pm._domainkey.example.com', value: 'k=rsa; p=PMKEY' },
      { type: 'CNAME', host: 'pm-bounces.example.com.', value: 'pm.mtasv.net' },
      { type: 'TXT', host: 'old._domainkey.example.com', value: 'k=rsa; p=GONE' },
    ];
    const result = plan(
      {
        'TXT example.com': ['v=spf1 a mx include:spf.mtasv.net ~all'],
        'TXT 20240101pm._domainkey.example.com': ['k=rsa; p=PMKEY'],
        'CNAME pm-bounces.example.com': ['pm.mtasv.net.'],
      },
      postmark,
    );
    const provider = result.changes.filter((change) => change.purpose === 'provider');
    expect(provider).toEqual([
      {
        action: 'keep',
        type: 'TXT',
        host: '20240101pm._domainkey.example.com',
        value: 'k=rsa; p=PMKEY',
        purpose: 'provider',
        current: 'k=rsa; p=PMKEY',
        note: expect.stringMatching(/Postmark's DKIM key: keep it while mail still goes through Postmark/),
      },
      {
        action: 'keep',
        type: 'CNAME',
        host: 'pm-bounces.example.com',
        value: 'pm.mtasv.net',
        purpose: 'provider',
        current: 'pm.mtasv.net',
        note: expect.any(String),
      },
    ]);
    expect(row(result.changes, 'spf')).toMatchObject({
      action: 'update',
      value: `v=spf1 a mx include:spf.mtasv.net include:${INCLUDE} ~all`,
    });
    expect(result.keep_old_records).toBe(
      `Keep Postmark's DNS records (20240101pm._domainkey.example.com, pm-bounces.example.com, old._domainkey.example.com) until the last email sent through Postmark has been delivered and its bounces and complaints have come in (a few days after your code sends through us); then remove them, and take include:spf.mtasv.net out of the SPF record of example.com. Never remove include:${INCLUDE} from the SPF record of example.com: it is ours.`,
    );
  });

  it('says what to keep even when the provider listed no records', () => {
    expect(plan({}, [], 'sendgrid').keep_old_records).toMatch(
      /^Keep the DNS records you published for SendGrid \(the import found none listed\) until .*Never remove include:spf\.mail\.test/,
    );
  });

  it('is unchecked, every record of ours an add, when any lookup failed', () => {
    const result = plan(
      { 'TXT example.com': [`v=spf1 include:${INCLUDE} ~all`], 'CNAME rp.example.com': { kind: 'error', message: 'SERVFAIL' } },
      [{ type: 'CNAME', host: 's1._domainkey.example.com', value: 's1.domainkey.u1.wl.sendgrid.net' }],
      'sendgrid',
    );
    expect(result.checked).toBe(false);
    expect(result.changes).toHaveLength(required.length);
    expect(result.changes.every((change) => change.action === 'add' && change.current === null)).toBe(true);
    expect(result.changes.map((change) => change.value)).toEqual(required.map((record) => record.value));
    expect(row(result.changes, 'spf')!.note).toMatch(/add include:spf\.mail\.test to it; never publish two/);
    expect(result.keep_old_records).toMatch(/s1\._domainkey\.example\.com/);
  });

  it('is unchecked when only a provider record lookup failed', () => {
    const result = plan(
      { 'CNAME s1._domainkey.example.com': { kind: 'error', message: 'timeout' } },
      [{ type: 'CNAME', host: 's1._domainkey.example.com', value: 'x.sendgrid.net' }],
      'sendgrid',
    );
    expect(result.checked).toBe(false);
  });

  it('reads each host and type once, normalised, ours and the provider ones', () => {
    const published = dns({});
    planDns({
      domain: DOMAIN,
      required,
      published,
      providerRecords: [
        { type: 'TXT', host: 'Example.com.', value: 'v=spf1 include:mailgun.org ~all' },
        { type: 'MX', host: 'example.com', value: 'mxa.mailgun.org' },
        { type: 'MX', host: 'example.com', value: 'mxb.mailgun.org' },
      ],
      provider: 'mailgun',
    });
    expect(published.asked).toEqual([
      'TXT _service.example.com',
      'TXT svc1._domainkey.example.com',
      'CNAME rp.example.com',
      'TXT example.com',
      'TXT _dmarc.example.com',
      'MX example.com',
    ]);
    expect(
      dnsQueries(required, [{ type: 'MX', host: 'EXAMPLE.com', value: 'mxa.mailgun.org' }]).map((query) => `${query.type} ${query.host}`),
    ).toContain('MX example.com');
  });
});
