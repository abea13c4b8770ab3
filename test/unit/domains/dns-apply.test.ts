/** DNS apply's planning (what each record set becomes), the TXT codec, and the request schema. */
import { planApply, setKey, zoneCandidates } from '#shared/domain/domains/dns-apply';
import type { DnsRecord } from '#shared/domain/domains/domain';
import { expectedRecords } from '#shared/domain/domains/records';
import { applyDnsSchema, storeDnsProviderSchema } from '#shared/domain/domains/schemas';
import { quoteTxt, unquoteTxt } from '#shared/adapters/dns-hosts/txt';

const settings = { returnPathHost: 'rp.mail.test', spfInclude: 'spf.mail.test', inboundMxHost: 'inbound.mail.test' };
const records: DnsRecord[] = expectedRecords(
  { name: 'example.com', ownershipToken: 'tok', dkimSelector: 'sel1', dkimPublicKey: 'KEY', inboundSubdomain: 'inbound.example.com' },
  settings,
);
const ours = (purpose: string) => records.find((r) => r.purpose === purpose)!;

function published(entries: [string, DnsRecord['type'], string[]][]): Map<string, string[]> {
  return new Map(entries.map(([name, type, values]) => [setKey(name, type), values]));
}

describe('planApply', () => {
  test('nothing published: every record created, with exactly our value', () => {
    const plan = planApply(records, new Map());
    expect(plan.map((p) => [p.result.purpose, p.result.action])).toEqual([
      ['ownership', 'created'],
      ['dkim', 'created'],
      ['return_path', 'created'],
      ['spf', 'created'],
      ['dmarc', 'created'],
      ['inbound_mx', 'created'],
    ]);
    expect(plan.find((p) => p.result.purpose === 'spf')!.write).toEqual({
      name: 'example.com',
      type: 'TXT',
      values: ['v=spf1 include:spf.mail.test ~all'],
    });
    expect(plan.find((p) => p.result.purpose === 'inbound_mx')!.write!.values).toEqual(['10 inbound.mail.test']);
    expect(plan.find((p) => p.result.purpose === 'return_path')!.write!.values).toEqual(['rp.mail.test']);
  });

  test('an existing SPF record gets our include merged in; other TXT values at the apex stay; never a second SPF record', () => {
    const plan = planApply(
      records,
      published([['example.com', 'TXT', ['google-site-verification=xyz', 'v=spf1 include:_spf.google.com ~all']]]),
    );
    const spf = plan.find((p) => p.result.purpose === 'spf')!;
    expect(spf.result).toMatchObject({
      action: 'updated',
      value: 'v=spf1 include:_spf.google.com include:spf.mail.test ~all',
      previous: 'google-site-verification=xyz | v=spf1 include:_spf.google.com ~all',
    });
    expect(spf.result.message).toContain('include:spf.mail.test');
    expect(spf.write!.values).toEqual(['google-site-verification=xyz', 'v=spf1 include:_spf.google.com include:spf.mail.test ~all']);
    expect(spf.write!.values.filter((v) => v.startsWith('v=spf1'))).toHaveLength(1);
  });

  test('two SPF records are merged into one', () => {
    const plan = planApply(records, published([['example.com', 'TXT', ['v=spf1 include:a.test -all', 'v=spf1 ip4:192.0.2.1 ~all']]]));
    const spf = plan.find((p) => p.result.purpose === 'spf')!;
    expect(spf.result.action).toBe('updated');
    expect(spf.write!.values).toEqual(['v=spf1 include:a.test ip4:192.0.2.1 include:spf.mail.test -all']);
    expect(spf.result.message).toMatch(/Merged the 2 SPF records into one/);
  });

  test('an SPF record with our include, and exact values, are unchanged (no write)', () => {
    const plan = planApply(
      records,
      published([
        ['example.com', 'TXT', ['v=spf1 include:spf.mail.test -all']],
        ['_service.example.com', 'TXT', [ours('ownership').value]],
        ['rp.example.com', 'CNAME', ['rp.mail.test']],
        ['inbound.example.com', 'MX', ['10 inbound.mail.test']],
      ]),
    );
    for (const purpose of ['spf', 'ownership', 'return_path', 'inbound_mx']) {
      const entry = plan.find((p) => p.result.purpose === purpose)!;
      expect({ purpose, action: entry.result.action, write: entry.write }).toEqual({ purpose, action: 'unchanged', write: null });
    }
  });

  test('an existing DMARC policy is kept; a wrong CNAME, an old token and another DKIM key are replaced, other values stay', () => {
    const plan = planApply(
      records,
      published([
        ['_dmarc.example.com', 'TXT', ['v=DMARC1; p=reject']],
        ['rp.example.com', 'CNAME', ['bounces.old.test']],
        ['_service.example.com', 'TXT', ['service-verification=old', 'other=1']],
        ['sel1._domainkey.example.com', 'TXT', ['v=DKIM1; k=rsa; p=OTHER']],
        ['inbound.example.com', 'MX', ['5 mx.old.test']],
      ]),
    );
    const byPurpose = (purpose: string) => plan.find((p) => p.result.purpose === purpose)!;
    expect(byPurpose('dmarc').result).toMatchObject({ action: 'unchanged', value: 'v=DMARC1; p=reject' });
    expect(byPurpose('dmarc').write).toBeNull();
    expect(byPurpose('return_path').result).toMatchObject({ action: 'updated', previous: 'bounces.old.test' });
    expect(byPurpose('return_path').write!.values).toEqual(['rp.mail.test']);
    expect(byPurpose('ownership').write!.values).toEqual(['other=1', ours('ownership').value]);
    expect(byPurpose('dkim').write!.values).toEqual([ours('dkim').value]);
    expect(byPurpose('inbound_mx').write!.values).toEqual(['10 inbound.mail.test']);
  });
});

test('zoneCandidates: the name and each parent with two labels or more, longest first', () => {
  expect(zoneCandidates('Mail.Sub.Example.co.uk.')).toEqual(['mail.sub.example.co.uk', 'sub.example.co.uk', 'example.co.uk', 'co.uk']);
  expect(zoneCandidates('example.com')).toEqual(['example.com']);
});

describe('TXT presentation format', () => {
  test('quoted in strings of at most 255 bytes, escapes, round trip', () => {
    const long = `v=DKIM1; p=${'A'.repeat(600)}`;
    const quoted = quoteTxt(long);
    expect(quoted.match(/"[^"]*"/g)!.map((s) => s.length - 2)).toEqual([255, 255, long.length - 510]);
    expect(unquoteTxt(quoted)).toBe(long);
    expect(quoteTxt('say "hi" \\ there')).toBe('"say \\"hi\\" \\\\ there"');
    expect(unquoteTxt('"say \\"hi\\" \\\\ there"')).toBe('say "hi" \\ there');
    expect(unquoteTxt('"caf\\195\\169"')).toBe('café');
    expect(unquoteTxt('plain content')).toBe('plain content');
    const wide = 'é'.repeat(200);
    expect(unquoteTxt(quoteTxt(wide))).toBe(wide);
  });
});

describe('the apply request', () => {
  test('provider required; credentials checked per provider; messages never quote secrets', () => {
    expect(applyDnsSchema.safeParse({ action: 'apply', provider: 'route53' }).data).toEqual({ provider: 'route53', credentials: null });
    expect(applyDnsSchema.safeParse({ action: 'apply', provider: 'cloudflare', credentials: { api_token: 'tok_123' } }).data).toEqual({
      provider: 'cloudflare',
      credentials: { provider: 'cloudflare', apiToken: 'tok_123' },
    });
    expect(
      applyDnsSchema.safeParse({
        action: 'apply',
        provider: 'route53',
        credentials: { access_key_id: 'AKIA1', secret_access_key: 's', session_token: 't' },
      }).data,
    ).toEqual({
      provider: 'route53',
      credentials: { provider: 'route53', accessKeyId: 'AKIA1', secretAccessKey: 's', sessionToken: 't' },
    });
    const missing = applyDnsSchema.safeParse({ action: 'apply' });
    expect(missing.error!.issues[0]!.path).toEqual(['provider']);
    const wrong = applyDnsSchema.safeParse({ action: 'apply', provider: 'cloudflare', credentials: { api_token: 'has space secret' } });
    expect(wrong.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['credentials.api_token', 'api_token must not contain spaces'],
    ]);
    expect(JSON.stringify(wrong.error!.issues)).not.toContain('has space secret');
    const foreign = applyDnsSchema.safeParse({ action: 'apply', provider: 'route53', credentials: { api_token: 'x' } });
    expect(foreign.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(
      ['credentials', 'credentials.access_key_id', 'credentials.secret_access_key'].sort(),
    );
    expect(storeDnsProviderSchema('cloudflare').safeParse({ credentials: { api_token: 'abc' } }).data).toEqual({
      provider: 'cloudflare',
      apiToken: 'abc',
    });
  });
});
