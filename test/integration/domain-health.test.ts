/**
 * Domain health end to end (docs/deliverability.md, "Domain health"): GET /domains/{id}/health against
 * the local cloud's DNS emulator. Each finding is produced by a DNS state and is gone once the record is
 * fixed; the dashboard's domain page shows the findings, DNS content as text.
 */
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { publish, publishAll, uniqueDomain, unpublish, type PublicRecord } from './harness/dns';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

let account: TestAccount;
let domain: { id: string; name: string; records: PublicRecord[] };

beforeAll(async () => {
  account = await newAccount();
  const added = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), inbound_enabled: true } });
  expect(added.status).toBe(201);
  domain = added.body.domain;
});

async function health() {
  const response = await api('GET', `/domains/${domain.id}/health`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body as { findings: { type: string; check: string; impact: string; status: string; record?: { type: string; name: string; value: string } }[]; summary: any; domain_id: string };
}
const types = async () => (await health()).findings.map((f) => f.type);
const record = (purpose: string) => domain.records.find((r) => r.purpose === purpose)!;

describe('GET /domains/{id}/health', () => {
  // One domain walked through DNS states in order: each test leaves its records fixed.
  it('finds every record missing on a new domain, with the records to publish', async () => {
    const checked = await health();
    expect(checked).toMatchObject({ object: 'domain_health', domain_id: domain.id, domain: domain.name, checked_at: expect.any(String) });
    expect(checked.findings.map((f) => [f.type, f.impact, f.status])).toEqual([
      ['spf_missing', 'high', 'open'],
      ['dkim_missing', 'high', 'open'],
      ['dmarc_missing', 'high', 'open'],
      ['inbound_mx_missing', 'high', 'open'],
      ['mta_sts_missing', 'low', 'open'],
      ['tls_rpt_missing', 'low', 'open'],
      ['bimi_missing', 'low', 'open'],
    ]);
    const mx = stack().info.env.INBOUND_MX_HOST ?? 'inbound.mailservice.dev';
    expect(checked.findings.find((f) => f.type === 'inbound_mx_missing')!.record).toEqual({ type: 'MX', name: `inbound.${domain.name}`, value: `10 ${mx}` });
    expect(checked.findings.find((f) => f.type === 'dkim_missing')!.record).toEqual({ type: 'TXT', name: record('dkim').name, value: record('dkim').value });
    expect(checked.summary).toMatchObject({ open: 7, high: 4, low: 3, spf_lookups: null });
  });

  it('clears SPF, DKIM, DMARC presence and the MX once the domain records are published; p=none stays, low', async () => {
    await publishAll(domain.records);
    const checked = await health();
    expect(checked.findings.map((f) => f.type)).toEqual(['dmarc_policy_none', 'mta_sts_missing', 'tls_rpt_missing', 'bimi_missing']);
    expect(checked.summary).toMatchObject({ high: 0, low: 4, spf_lookups: 1, checks: { spf: 'ok', dkim: 'ok', dmarc: 'issues', inbound_mx: 'ok' } });
  });

  it('finds +all and ?all, then clears them', async () => {
    await publish(domain.name, 'TXT', ['v=spf1 include:spf.mailservice.dev +all']);
    expect(await types()).toContain('spf_pass_all');
    await publish(domain.name, 'TXT', ['v=spf1 include:spf.mailservice.dev ?all']);
    const neutral = await types();
    expect(neutral).toContain('spf_neutral_all');
    expect(neutral).not.toContain('spf_pass_all');
    await publish(domain.name, 'TXT', [record('spf').value]);
    expect(await types()).not.toContain('spf_neutral_all');
  });

  it('finds the service include missing, 11 lookups through nested includes and a loop, then clears them', async () => {
    await publish(domain.name, 'TXT', ['v=spf1 ip4:192.0.2.1 ~all']);
    const missing = (await health()).findings.find((f) => f.type === 'spf_include_missing')!;
    expect(missing.record).toEqual({ type: 'TXT', name: domain.name, value: 'v=spf1 include:spf.mailservice.dev ip4:192.0.2.1 ~all' });

    // include:spf.mailservice.dev (1), include:a (2), mx (3); a: include:b (4), a (5), mx (6); b: include:c (7), a (8), mx (9); c: a (10), mx (11)
    const [a, b, c] = ['a', 'b', 'c'].map((label) => `${label}.spf.${domain.name}`);
    await publish(a!, 'TXT', [`v=spf1 include:${b} a mx ~all`]);
    await publish(b!, 'TXT', [`v=spf1 include:${c} a mx ~all`]);
    await publish(c!, 'TXT', ['v=spf1 a mx ~all']);
    await publish(domain.name, 'TXT', [`v=spf1 include:spf.mailservice.dev include:${a} mx ~all`]);
    const eleven = await health();
    expect(eleven.summary.spf_lookups).toBe(11);
    expect(eleven.findings.map((f) => f.type)).toContain('spf_too_many_lookups');

    await publish(c!, 'TXT', ['v=spf1 a ~all']);
    const ten = await health();
    expect(ten.summary.spf_lookups).toBe(10);
    expect(ten.findings.map((f) => f.type)).not.toContain('spf_too_many_lookups');

    await publish(c!, 'TXT', [`v=spf1 include:${a} ~all`]);
    expect(await types()).toContain('spf_include_loop');

    await publish(domain.name, 'TXT', [record('spf').value]);
    const fixed = await health();
    expect(fixed.findings.filter((f) => f.check === 'spf')).toEqual([]);
    expect(fixed.summary.checks.spf).toBe('ok');
  });

  it('finds another DKIM key, then clears it', async () => {
    await publish(record('dkim').name, 'TXT', ['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours']);
    expect(await types()).toContain('dkim_key_mismatch');
    await publish(record('dkim').name, 'TXT', [record('dkim').value]);
    expect(await types()).not.toContain('dkim_key_mismatch');
  });

  it('finds an MX that points elsewhere, then clears it', async () => {
    await publish(`inbound.${domain.name}`, 'MX', ['10 mail.elsewhere.example']);
    expect(await types()).toContain('inbound_mx_wrong');
    await publishAll(domain.records, ['inbound_mx']);
    expect(await types()).not.toContain('inbound_mx_wrong');
  });

  it('finds DMARC without reports and with strict SPF alignment, then clears every DMARC finding', async () => {
    await publish(`_dmarc.${domain.name}`, 'TXT', ['v=DMARC1; p=quarantine; aspf=s']);
    const found = await types();
    expect(found).toEqual(expect.arrayContaining(['dmarc_no_reporting', 'dmarc_spf_alignment_strict']));
    expect(found).not.toContain('dmarc_policy_none');
    await publish(`_dmarc.${domain.name}`, 'TXT', [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain.name}`]);
    expect((await health()).findings.filter((f) => f.check === 'dmarc')).toEqual([]);
  });

  it('clears MTA-STS, TLS-RPT and BIMI once published, and then finds nothing', async () => {
    const before = await health();
    for (const type of ['mta_sts_missing', 'tls_rpt_missing', 'bimi_missing']) {
      const suggested = before.findings.find((f) => f.type === type)!.record!;
      await publish(suggested.name, 'TXT', [suggested.value]);
    }
    const after = await health();
    expect(after.findings).toEqual([]);
    expect(after.summary).toEqual({ open: 0, high: 0, low: 0, spf_lookups: 1, checks: { spf: 'ok', dkim: 'ok', dmarc: 'ok', inbound_mx: 'ok', mta_sts: 'ok', tls_rpt: 'ok', bimi: 'ok' } });
    await unpublish(`_smtp._tls.${domain.name}`, 'TXT');
    expect(await types()).toEqual(['tls_rpt_missing']);
  });

  it("shows the findings on the dashboard's domain page, DNS content as text", async () => {
    await publish(domain.name, 'TXT', ['v=spf1 ip4:192.0.2.1 exp=<b>x</b> ~all']);
    const { email } = await newDashboardUser(account);
    const session = await signIn(email);
    const page = await dashboardRequest('GET', `/dashboard/domains/${domain.id}`, { cookie: session.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="health-heading">Health</h2>');
    expect(page.text).toContain('<span class="status bad">high</span>');
    expect(page.text).toContain('<code>spf_include_missing</code>');
    expect(page.text).toContain('exp=&lt;b&gt;x&lt;/b&gt;');
    expect(page.text).not.toContain('<b>x</b>');
    await publish(domain.name, 'TXT', [record('spf').value]);
  });

  it("is 404 for another account's domain", async () => {
    const other = await newAccount();
    const response = await api('GET', `/domains/${domain.id}/health`, { key: other.key });
    expect(response.status).toBe(404);
  });
});
