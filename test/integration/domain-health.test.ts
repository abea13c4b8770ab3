/**
 * Domain health end to end (docs/deliverability.md, "Domain health"): POST /domains/{id}/health (check now)
 * and GET (the stored check) against the local cloud's DNS emulator. Each finding is produced by a DNS state
 * and is fixed once the record is; domain.health_changed reaches a webhook endpoint; a domain just verified
 * is checked by the domain-health task on its own; the dashboard's domain page shows the findings, DNS
 * content as text.
 */
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { publish, publishAll, uniqueDomain, unpublish, type PublicRecord } from './harness/dns';
import { verifiedDomain } from './harness/domains';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { webhookInbox, type ReceivedWebhook } from './harness/webhook-inbox';

type Finding = {
  type: string;
  check: string;
  impact: string;
  status: string;
  first_seen_at: string;
  fixed_at: string | null;
  record?: { type: string; name: string; value: string };
};
type Health = { findings: Finding[]; summary: any; domain_id: string; checked_at: string; next_check_at: string };

let account: TestAccount;
let domain: { id: string; name: string; records: PublicRecord[] };
let received: () => Promise<ReceivedWebhook[]>;

/** A domain verified as the file starts, by an account of its own (a plan's domain limit): the task checks it unasked. */
let justVerified: { account: TestAccount; inbox: () => Promise<ReceivedWebhook[]>; domain: { id: string; name: string } };
/** 100 emails sent as the file starts from a domain of their own, 6 of them to bounce: the reputation check's input. */
let bouncing: { account: TestAccount; domain: { id: string; name: string }; reputationBefore: string };

async function verifyOneUnasked(): Promise<typeof justVerified> {
  const other = await newAccount();
  const inbox = await webhookInbox(other, ['domain.health_changed']);
  return { account: other, inbox, domain: await verifiedDomain(other) };
}

async function sendWithBounces(): Promise<typeof bouncing> {
  const sender = await newAccount({ plan: 'pro', paymentMethod: true });
  const own = await verifiedDomain(sender);
  const before = await api('POST', `/domains/${own.id}/health`, { key: sender.key });
  // 100 emails through the local SES: 94 delivered, 6 bounced (6%, over SES's 5%).
  const to = (i: number) => (i < 6 ? `bounce+h${i}@simulator.amazonses.com` : `success+h${i}@simulator.amazonses.com`);
  const batch = await api('POST', '/emails/batch', {
    key: sender.key,
    body: Array.from({ length: 100 }, (_, i) => ({ from: `hello@${own.name}`, to: to(i), subject: 'Health', text: 'Hi' })),
  });
  expect(batch.status).toBe(200);
  return { account: sender, domain: own, reputationBefore: before.body.summary.checks.reputation };
}

// The last two tests' domains are made as the file starts, so their waits (the domain-health task's pass, the
// bounces counted) pass during the walk of the first domain's findings.
beforeAll(async () => {
  account = await newAccount();
  received = await webhookInbox(account, ['domain.health_changed']);
  const added = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), inbound_enabled: true } });
  expect(added.status).toBe(201);
  domain = added.body.domain;
  [justVerified, bouncing] = await Promise.all([verifyOneUnasked(), sendWithBounces()]);
});

/** Checks now (POST) and answers the stored check, fixed findings included. */
async function checkNow(): Promise<Health> {
  const response = await api('POST', `/domains/${domain.id}/health`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body as Health;
}
/** Checks now; `findings` are the open ones. */
async function health(): Promise<Health> {
  const checked = await checkNow();
  return { ...checked, findings: checked.findings.filter((f) => f.status === 'open') };
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
    expect(checked.findings.find((f) => f.type === 'inbound_mx_missing')!.record).toEqual({
      type: 'MX',
      name: `inbound.${domain.name}`,
      value: `10 ${mx}`,
    });
    expect(checked.findings.find((f) => f.type === 'dkim_missing')!.record).toEqual({
      type: 'TXT',
      name: record('dkim').name,
      value: record('dkim').value,
    });
    expect(checked.summary).toMatchObject({ open: 7, high: 4, low: 3, spf_lookups: null });
  });

  it('clears SPF, DKIM, DMARC presence and the MX once the domain records are published; p=none stays, low', async () => {
    await publishAll(domain.records);
    const checked = await health();
    expect(checked.findings.map((f) => f.type)).toEqual(['dmarc_policy_none', 'mta_sts_missing', 'tls_rpt_missing', 'bimi_missing']);
    expect(checked.summary).toMatchObject({
      high: 0,
      low: 4,
      spf_lookups: 1,
      checks: { spf: 'ok', dkim: 'ok', dmarc: 'issues', inbound_mx: 'ok' },
    });
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
    expect(after.summary).toEqual({
      open: 0,
      high: 0,
      low: 0,
      spf_lookups: 1,
      checks: {
        spf: 'ok',
        dkim: 'ok',
        dmarc: 'ok',
        inbound_mx: 'ok',
        mta_sts: 'ok',
        tls_rpt: 'ok',
        bimi: 'ok',
        reputation: 'skipped',
        link_domain: 'skipped',
      },
    });
    await unpublish(`_smtp._tls.${domain.name}`, 'TXT');
    expect(await types()).toEqual(['tls_rpt_missing']);
  });

  it("shows the findings on the dashboard's domain page, DNS content as text", async () => {
    await publish(domain.name, 'TXT', ['v=spf1 ip4:192.0.2.1 exp=<b>x</b> ~all']);
    await checkNow();
    const { email } = await newDashboardUser(account);
    const session = await signIn(email);
    const page = await dashboardRequest('GET', `/dashboard/domains/${domain.id}`, { cookie: session.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="health-heading">Health</h2>');
    expect(page.text).toContain('<span class="status bad">high</span>');
    expect(page.text).toContain('<code>spf_include_missing</code>');
    expect(page.text).toContain('exp=&lt;b&gt;x&lt;/b&gt;');
    expect(page.text).not.toContain('<b>x</b>');
    expect(page.text).toContain('Check now');
    await publish(domain.name, 'TXT', [record('spf').value]);
    await checkNow();
  });

  it("is 404 for another account's domain", async () => {
    const other = await newAccount();
    expect((await api('GET', `/domains/${domain.id}/health`, { key: other.key })).status).toBe(404);
    expect((await api('POST', `/domains/${domain.id}/health`, { key: other.key })).status).toBe(404);
  });
});

describe('stored checks: GET, fixed findings, domain.health_changed, the daily task', () => {
  it('GET answers the stored check: a DNS change shows only once checked again, and then as fixed', async () => {
    const before = await checkNow();
    expect(before.findings.filter((f) => f.status === 'open').map((f) => f.type)).toEqual(['tls_rpt_missing']);
    expect(Date.parse(before.next_check_at) - Date.parse(before.checked_at)).toBe(24 * 3600_000);
    const tlsRpt = before.findings.find((f) => f.type === 'tls_rpt_missing')!;
    await publish(tlsRpt.record!.name, 'TXT', [tlsRpt.record!.value]);
    const stored = await api('GET', `/domains/${domain.id}/health`, { key: account.key });
    expect(stored.status).toBe(200);
    expect(stored.body.checked_at).toBe(before.checked_at);
    expect(stored.body.findings.find((f: Finding) => f.type === 'tls_rpt_missing').status).toBe('open');

    const after = await checkNow();
    expect(after.findings.find((f) => f.type === 'tls_rpt_missing')).toMatchObject({
      status: 'fixed',
      first_seen_at: tlsRpt.first_seen_at,
      fixed_at: after.checked_at,
    });
    expect(after.summary).toMatchObject({ open: 0, high: 0, low: 0 });
    expect((await api('GET', `/domains/${domain.id}/health`, { key: account.key })).body).toEqual(after);
  });

  it('domain.health_changed reached the endpoint for each check that opened or fixed a finding, and for no other', async () => {
    // Deliveries may arrive in any order: the events are ordered by their check, and the wait is for the last check's.
    const latest = (await api('GET', `/domains/${domain.id}/health`, { key: account.key })).body.checked_at as string;
    const events = await waitFor(async () => {
      const all = (await received()).filter((event) => event.data.domain_id === domain.id);
      if (!all.some((event) => event.data.checked_at === latest))
        throw new Error(`${all.length} events so far, none of the check at ${latest}`);
      return all.sort((a, b) => a.data.checked_at.localeCompare(b.data.checked_at));
    }, 'the event of the check that fixed TLS-RPT');
    // The first check opened seven findings; the last one fixed TLS-RPT.
    expect(events[0]!.data).toMatchObject({ domain: domain.name, tenant: null, fixed: [] });
    expect(events[0]!.data.opened.map((f: Finding) => f.type)).toEqual([
      'spf_missing',
      'dkim_missing',
      'dmarc_missing',
      'inbound_mx_missing',
      'mta_sts_missing',
      'tls_rpt_missing',
      'bimi_missing',
    ]);
    const last = events[events.length - 1]!.data;
    expect(last).toMatchObject({ checked_at: latest, opened: [], summary: { open: 0, high: 0, low: 0 } });
    expect(last.fixed.map((f: Finding) => f.type)).toEqual(['tls_rpt_missing']);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    // Checks that changed nothing raised nothing: fewer events than checks (the walk above checked ~30 times).
    expect(events.length).toBeLessThan(25);
  });

  it('a domain just verified is checked by the domain-health task, unasked', async () => {
    const { account: other, inbox, domain: own } = justVerified;
    const event = await waitFor(async () => {
      const found = (await inbox()).find((e) => e.data.domain_id === own.id);
      if (!found) throw new Error('no domain.health_changed yet');
      return found;
    }, 'the domain-health task to check the domain just verified');
    // Its records are published as the service gave them (DMARC p=none): the low findings open.
    expect(event.data.opened.map((f: Finding) => f.type)).toEqual([
      'dmarc_policy_none',
      'mta_sts_missing',
      'tls_rpt_missing',
      'bimi_missing',
    ]);
    const stored = await api('GET', `/domains/${own.id}/health`, { key: other.key });
    expect(stored.body.checked_at).toBe(event.data.checked_at);
  });
});

describe('the reputation check', () => {
  it("finds the account's bounce rate over SES's review rate once its bounces are counted, with no record to publish", async () => {
    const { account: sender, domain: own, reputationBefore } = bouncing;
    // Skipped before the account had sent anything.
    expect(reputationBefore).toBe('skipped');
    const found = await waitFor(async () => {
      const checked = await api('POST', `/domains/${own.id}/health`, { key: sender.key });
      const rate = checked.body.findings.find((f: Finding) => f.check === 'reputation');
      if (rate?.type !== 'bounce_rate_high') throw new Error(`reputation: ${checked.body.summary.checks.reputation}`);
      // 5 of the 6 bounces counted already make it high (SES reviews at 5%): wait for the sixth too.
      if (!rate.message.includes('Bounce rate 6%')) throw new Error(`not every bounce counted yet: ${rate.message}`);
      return rate;
    }, 'the bounces counted and the reputation finding');
    expect(found).toMatchObject({
      impact: 'high',
      status: 'open',
      docs_url: 'https://docs.aws.amazon.com/ses/latest/dg/faqs-enforcement.html',
    });
    expect(found.message).toContain("Bounce rate 6% over 100 of the account's emails");
    expect(found.record).toBeUndefined();
  });
});
