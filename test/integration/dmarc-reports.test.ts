/**
 * DMARC aggregate reports end to end on the local cloud (docs/deliverability.md, "DMARC aggregate
 * reports"): a verified receiving domain turns reports on (PATCH /domains/{id} dmarc_reports), receivers'
 * report mails reach our MX (nodemailer, as a sending server), the inbound worker records each as a
 * received email and counts its reports, and GET /domains/{id}/dmarc answers the figures the fixtures
 * document. A re-sent report is not counted twice; hostile files are refused, their email still recorded;
 * another account's key gets 404.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { api, newAccount, waitFor, type TestAccount } from './harness/stack';
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { FIXTURE_DOMAIN, FIXTURE_SELECTOR, receiverReports, source } from '../fixtures/dmarc/build';

const RANGE = 'since=2026-11-01&until=2026-11-02';

async function selectorOf(account: TestAccount, domainId: string): Promise<string> {
  const response = await api('GET', `/domains/${domainId}`, { key: account.key });
  const dkim = (response.body.domain.records as { purpose: string; name: string }[]).find((record) => record.purpose === 'dkim')!;
  return dkim.name.split('._domainkey.')[0]!;
}

async function enableReports(account: TestAccount, domainId: string) {
  const response = await api('PATCH', `/domains/${domainId}`, { key: account.key, body: { dmarc_reports: { enabled: true } } });
  expect(response.status).toBe(200);
  return response.body.domain;
}

/** A report mail as a receiver sends it: the files as attachments, or the XML as the body. */
async function sendReport(to: string, files: Record<string, Buffer>, body?: string): Promise<string> {
  const info = await mxTransport().sendMail({
    envelope: { from: 'noreply-dmarc-support@reports.example-receiver.test', to: [to] },
    from: 'noreply-dmarc-support@reports.example-receiver.test',
    to,
    subject: 'Report domain: test Submitter: receiver.test',
    ...(body ? { text: body } : { text: 'This is an aggregate report.' }),
    attachments: Object.entries(files).map(([filename, content]) => ({
      filename,
      content,
      contentType: filename.endsWith('.zip') ? 'application/zip' : filename.endsWith('.gz') ? 'application/gzip' : 'text/xml',
    })),
  });
  return receivedIds(info.response)[0]!;
}

/** A fresh Yahoo-shaped report (its own report_id) of `count` messages from 192.0.2.200, not ours. */
function markerReport(domain: string, reportId: string, count: number): Buffer {
  const xml = source('yahoo.xml')
    .split(FIXTURE_DOMAIN)
    .join(domain)
    .replace('1793491200.418276', reportId)
    .replace(
      /<record>[\s\S]*<\/record>/,
      `<record><row><source_ip>192.0.2.200</source_ip><count>${count}</count><policy_evaluated><disposition>none</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated></row><identifiers><header_from>${domain}</header_from></identifiers><auth_results><spf><domain>elsewhere.test</domain><result>pass</result></spf></auth_results></record>`,
    );
  return gzipSync(xml);
}

async function figuresOnce(account: TestAccount, domainId: string, query = RANGE) {
  const response = await api('GET', `/domains/${domainId}/dmarc?${query}`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body;
}

const waitForMessages = (account: TestAccount, domainId: string, messages: number) =>
  waitFor(
    async () => {
      const figures = await figuresOnce(account, domainId);
      return figures.totals.messages === messages ? figures : undefined;
    },
    `DMARC figures of ${domainId} reaching ${messages} messages`,
    30_000,
    200,
  );

describe('DMARC aggregate reports through our MX', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true });
  });

  it('counts the reports of Google, Microsoft, Yahoo and a small receiver sent to the report address, each once', async () => {
    const inbox = await receivingDomain(account);
    const domain = await enableReports(account, inbox.id);
    const address = `dmarc@${inbox.subdomain}`;
    expect(domain.dmarc_reports).toEqual({ enabled: true, address, authorization_record: null });
    expect(domain.records.find((record: { purpose: string }) => record.purpose === 'dmarc').value).toBe(
      `v=DMARC1; p=none; rua=mailto:${address}`,
    );

    const reports = receiverReports(inbox.name, await selectorOf(account, inbox.id));
    const ids = [
      await sendReport(address, { [`google.com!${inbox.name}!1793491200!1793577599.zip`]: reports['google.zip'] }),
      await sendReport(address, {
        'enterprise.protection.outlook.com!report.xml.gz': reports['outlook.xml.gz'],
        'yahoo.com!report.xml.gz': reports['yahoo.xml.gz'],
      }),
      await sendReport(address, {}, reports['smallisp.xml'].toString()),
    ];
    // Each report mail is a received email as any other.
    for (const id of ids) expect(await waitForReceived(account, id)).toMatchObject({ id, rcpt_to: [address], status: 'received' });

    const figures = await waitForMessages(account, inbox.id, 312);
    expect(figures).toMatchObject({
      object: 'dmarc_figures',
      domain_id: inbox.id,
      domain: inbox.name,
      since: '2026-11-01',
      until: '2026-11-02',
      report_address: address,
      reports: 4,
    });
    expect(figures.totals).toEqual({
      messages: 312,
      dmarc_pass: 284,
      spf_aligned_pass: 273,
      dkim_aligned_pass: 281,
      pass_rate: 0.9103,
      disposition: { none: 296, quarantine: 7, reject: 9 },
    });
    expect({ ours: figures.ours.messages, others: figures.others.messages }).toEqual({ ours: 276, others: 36 });
    expect(figures.reporters).toEqual(['Enterprise Outlook', 'Yahoo', 'google.com', 'mx.smallisp.test']);
    expect(figures.days).toEqual([
      {
        day: '2026-11-01',
        messages: 222,
        dmarc_pass: 201,
        ours: { messages: 196, dmarc_pass: 196 },
        others: { messages: 26, dmarc_pass: 5 },
      },
      { day: '2026-11-02', messages: 90, dmarc_pass: 83, ours: { messages: 80, dmarc_pass: 80 }, others: { messages: 10, dmarc_pass: 3 } },
    ]);
    expect(figures.sources[0]).toMatchObject({
      source_ip: '54.240.8.10',
      group: 'ours',
      messages: 206,
      reporters: ['Enterprise Outlook', 'google.com', 'mx.smallisp.test'],
    });
    const others = await figuresOnce(account, inbox.id, `${RANGE}&group=others&limit=2`);
    expect(others.sources.map((s: { source_ip: string; messages: number }) => [s.source_ip, s.messages])).toEqual([
      ['203.0.113.7', 21],
      ['2001:db8::25', 7],
    ]);
    expect(others.has_more).toBe(true);

    // Google sends the same report again (with a new one after it in the same mail): counted once.
    const again = await sendReport(address, {
      'google.zip': reports['google.zip'],
      'marker.xml.gz': markerReport(inbox.name, 'marker-1', 1),
    });
    await waitForReceived(account, again);
    const after = await waitForMessages(account, inbox.id, 313);
    expect({ reports: after.reports, ours: after.ours.messages, others: after.others.messages }).toEqual({
      reports: 5,
      ours: 276,
      others: 37,
    });

    // Another account's key: 404, as for the domain itself.
    const stranger = await newAccount();
    const foreign = await api('GET', `/domains/${inbox.id}/dmarc?${RANGE}`, { key: stranger.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
  });

  it('refuses hostile report files: the email is recorded, the figures get nothing from them', async () => {
    const inbox = await receivingDomain(account);
    await enableReports(account, inbox.id);
    const address = `dmarc@${inbox.subdomain}`;
    // The committed files (test/unit/dmarc/report-fixtures.test.ts holds them to what build.ts makes): building
    // the bombs again compresses 64 MB twice.
    const hostile = (name: string) => readFileSync(join(__dirname, '../fixtures/dmarc', name));
    // The hostile files first, a good report last: once it counts, the ones before it were read (and refused).
    const id = await sendReport(address, {
      'xxe.xml': hostile('xxe.xml'),
      'gzip-bomb.xml.gz': hostile('gzip-bomb.xml.gz'),
      'zip-bomb-lying.zip': hostile('zip-bomb-lying.zip'),
      'marker.xml.gz': markerReport(inbox.name, 'marker-2', 4),
    });
    expect(await waitForReceived(account, id)).toMatchObject({ id, status: 'received', attachment_count: 4, parse_error: null });
    const figures = await waitForMessages(account, inbox.id, 4);
    expect({
      reports: figures.reports,
      reporters: figures.reporters,
      sources: figures.sources.map((s: { source_ip: string }) => s.source_ip),
    }).toEqual({ reports: 1, reporters: ['Yahoo'], sources: ['192.0.2.200'] });

    // A file that is hostile alone: recorded, nothing counted (the totals stay at the marker's 4).
    const alone = await sendReport(address, { 'billion-laughs.xml': hostile('billion-laughs.xml') });
    await waitForReceived(account, alone);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await figuresOnce(account, inbox.id)).totals.messages).toBe(4);
  });

  it('refuses an address that is not on a receiving domain of the account (400 naming the field)', async () => {
    const inbox = await receivingDomain(account);
    const response = await api('PATCH', `/domains/${inbox.id}`, {
      key: account.key,
      body: { dmarc_reports: { enabled: true, address: 'dmarc@inbound.not-ours.test' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([
      { field: 'dmarc_reports.address', message: expect.stringContaining('not-ours.test is not a domain of this account') },
    ]);
    expect(FIXTURE_SELECTOR).toMatch(/^svc/);
  });
});

describe("the dashboard's domain page", () => {
  it('turns reading on with Read DMARC reports, then shows the report address instead of the form', async () => {
    const account = await newAccount();
    const inbox = await receivingDomain(account);
    const session = await signIn((await newDashboardUser(account)).email);
    const before = await dashboardRequest('GET', `/dashboard/domains/${inbox.id}`, { cookie: session.cookie });
    expect(before.text).toContain('Read DMARC reports');
    const posted = await dashboardRequest('POST', `/dashboard/domains/${inbox.id}/dmarc`, {
      cookie: session.cookie,
      rawBody: new URLSearchParams({ csrf_token: session.csrf }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(303);
    const domain = (await api('GET', `/domains/${inbox.id}`, { key: account.key })).body.domain;
    expect(domain.dmarc_reports).toMatchObject({ enabled: true, address: `dmarc@${inbox.subdomain}` });
    const after = await dashboardRequest('GET', `/dashboard/domains/${inbox.id}`, { cookie: session.cookie });
    expect(after.text).toContain(`Reports are read at <code>dmarc@${inbox.subdomain}</code>`);
    expect(after.text).not.toContain('Read DMARC reports');
  });
});

describe('the DMARC record and the report address under concurrent PATCHes and verifies', () => {
  it("never leave the domain's DMARC record naming another address than its dmarc_reports", async () => {
    const account = await newAccount();
    const inbox = await receivingDomain(account);
    const rua = (domain: { records: { purpose: string; value: string }[] }) =>
      /rua=mailto:([^;\s]+)/.exec(domain.records.find((record) => record.purpose === 'dmarc')!.value)?.[1] ?? null;
    for (let round = 0; round < 4; round++) {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          n % 2 === 1
            ? api('POST', `/domains/${inbox.id}`, { key: account.key, body: { action: 'verify' } })
            : api('PATCH', `/domains/${inbox.id}`, { key: account.key, body: { dmarc_reports: { enabled: (n / 2 + round) % 2 === 0 } } }),
        ),
      );
      for (const response of responses) expect(response.status).toBe(200);
      const current = (await api('GET', `/domains/${inbox.id}`, { key: account.key })).body.domain;
      // The record names the report address while reports are read, else the domain's own dmarc@ (records.ts dmarcValue).
      expect({ round, rua: rua(current) }).toEqual({
        round,
        rua: current.dmarc_reports.enabled ? current.dmarc_reports.address : `dmarc@${inbox.name}`,
      });
    }
  }, 60_000);
});
