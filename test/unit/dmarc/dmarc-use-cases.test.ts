/**
 * The DMARC use cases over in-memory fakes: the report address setting (PATCH /domains/{id}
 * dmarc_reports), the inbound worker's step (ingestDmarcReports) and the figures (GET /domains/{id}/dmarc).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors';
import { publicDmarcReports } from '#shared/domain/domains/dmarc-reports';
import { changeDmarcReports } from '#shared/usecases/dmarc/report-settings';
import { ingestDmarcReports } from '#shared/usecases/dmarc/ingest-reports';
import { getDmarcFigures } from '#shared/usecases/dmarc/figures';
import { domain, fakes, principal } from './dmarc-fakes';

process.env.LOG_LEVEL = 'silent';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/dmarc', name));
const attachment = (name: string, content_type = 'application/octet-stream') => ({ filename: name, content_type, content: fixture(name) });
const message = (rcpt: string[], id = 'inb_1') => ({
  email_id: id,
  account_id: 'acc_1',
  rcpt_to: rcpt,
  received_at: '2026-11-02T08:00:00.000Z',
});
const query = (fields: Record<string, unknown> = {}) => ({ limit: 25, since: '2026-11-01', until: '2026-11-02', ...fields });

describe('dmarc_reports on a domain', () => {
  it('defaults to dmarc@ its receiving subdomain, names it in the suggested DMARC record, and points the address at the domain', async () => {
    const f = fakes([domain({ id: 'dom_1', name: 'example.com' })]);
    const updated = await changeDmarcReports(f, principal(), 'dom_1', { enabled: true });
    expect(publicDmarcReports(updated)).toEqual({ enabled: true, address: 'dmarc@inbound.example.com', authorization_record: null });
    expect(updated.records.find((r) => r.purpose === 'dmarc')?.value).toBe('v=DMARC1; p=none; rua=mailto:dmarc@inbound.example.com');
    expect(f.pointers.get('dmarc@inbound.example.com')).toEqual([{ account_id: 'acc_1', domain_id: 'dom_1', domain: 'example.com' }]);

    const off = await changeDmarcReports(f, principal(), 'dom_1', { enabled: false });
    expect(publicDmarcReports(off)).toEqual({ enabled: false, address: null, authorization_record: null });
    expect(off.records.find((r) => r.purpose === 'dmarc')?.value).toBe('v=DMARC1; p=none; rua=mailto:dmarc@example.com');
    expect(f.pointers.get('dmarc@inbound.example.com')).toEqual([]);
  });

  it('takes an address on another receiving domain of the account, with the RFC 7489 authorisation record to publish', async () => {
    const f = fakes([domain({ id: 'dom_1', name: 'shop.test', inbound_enabled: false }), domain({ id: 'dom_2', name: 'example.com' })]);
    const updated = await changeDmarcReports(f, principal(), 'dom_1', { enabled: true, address: 'reports@inbound.example.com' });
    expect(publicDmarcReports(updated)).toEqual({
      enabled: true,
      address: 'reports@inbound.example.com',
      authorization_record: { type: 'TXT', name: 'shop.test._report._dmarc.inbound.example.com', value: 'v=DMARC1' },
    });
  });

  it.each([
    [
      'no address and the domain does not receive',
      { id: 'dom_1', name: 'shop.test', inbound_enabled: false },
      undefined,
      /is required: shop.test does not receive mail/,
    ],
    ['an address not on a receiving subdomain', { id: 'dom_1', name: 'shop.test' }, 'dmarc@shop.test', /must be on a receiving subdomain/],
    [
      "another account's domain",
      { id: 'dom_1', name: 'shop.test' },
      'dmarc@inbound.other.test',
      /other.test is not a domain of this account/,
    ],
    [
      'a domain of the account that does not receive',
      { id: 'dom_1', name: 'shop.test' },
      'dmarc@inbound.quiet.test',
      /quiet.test does not receive mail/,
    ],
    [
      'a receiving domain not verified yet',
      { id: 'dom_1', name: 'shop.test' },
      'dmarc@inbound.pending.test',
      /pending.test is not verified yet/,
    ],
  ])('refuses %s (400 naming dmarc_reports.address)', async (_what, fields, address, message) => {
    const f = fakes([
      domain(fields),
      domain({ id: 'dom_8', name: 'other.test', account_id: 'acc_2' }),
      domain({ id: 'dom_9', name: 'quiet.test', inbound_enabled: false }),
      domain({ id: 'dom_7', name: 'pending.test', status: 'pending' }),
    ]);
    const attempt = changeDmarcReports(f, principal(), 'dom_1', { enabled: true, ...(address ? { address } : {}) });
    await expect(attempt).rejects.toThrow(ValidationError);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toMatchObject({ details: { fields: [{ field: 'dmarc_reports.address' }] } });
  });

  it("is 404 for another account's domain, and 409 when the domain keeps changing", async () => {
    const f = fakes([domain({ id: 'dom_1', name: 'example.com' })]);
    await expect(changeDmarcReports(f, principal('acc_2'), 'dom_1', { enabled: true })).rejects.toThrow(NotFoundError);
    const racing = { ...f, domains: { ...f.domains, changeDmarcReports: async () => null } };
    await expect(changeDmarcReports(racing, principal(), 'dom_1', { enabled: true })).rejects.toThrow(ConflictError);
  });
});

describe('the inbound worker counting reports', () => {
  async function enabled() {
    const f = fakes([domain({ id: 'dom_1', name: 'example.com' })]);
    await changeDmarcReports(f, principal(), 'dom_1', { enabled: true });
    return f;
  }
  const to = ['dmarc@inbound.example.com'];

  it('stores the reports of each receiver format sent to the report address, once per (reporter, report_id)', async () => {
    const f = await enabled();
    const outcomes = await ingestDmarcReports(f, message(to), {
      attachments: [
        attachment('google.zip', 'application/zip'),
        attachment('outlook.xml.gz', 'application/gzip'),
        attachment('yahoo.xml.gz'),
      ],
      text: null,
    });
    expect(outcomes.map((o) => [o.kind, o.kind === 'stored' ? o.messages : null])).toEqual([
      ['stored', 167],
      ['stored', 90],
      ['stored', 49],
    ]);
    // An inline XML body (no attachment), and a re-sent Google report: a duplicate, not counted again.
    expect(
      (await ingestDmarcReports(f, message(to, 'inb_2'), { attachments: [], text: fixture('smallisp.xml').toString() }))[0],
    ).toMatchObject({ kind: 'stored', part: 'body', messages: 6 });
    expect((await ingestDmarcReports(f, message(to, 'inb_3'), { attachments: [attachment('google.zip')], text: null }))[0]).toMatchObject({
      kind: 'duplicate',
    });
    const figures = await getDmarcFigures(f, principal(), 'dom_1', query());
    expect(figures.totals).toMatchObject({ messages: 312, dmarc_pass: 284 });
    expect({ reports: figures.reports, ours: figures.ours.messages, others: figures.others.messages }).toEqual({
      reports: 4,
      ours: 276,
      others: 36,
    });
  });

  it('refuses hostile files with their reason and never throws; the figures stay empty', async () => {
    const f = await enabled();
    const names = ['xxe.xml', 'gzip-bomb.xml.gz', 'zip-bomb.zip', 'traversal.zip'];
    const outcomes = await ingestDmarcReports(f, message(to), { attachments: names.map((name) => attachment(name)), text: null });
    expect(outcomes.map((o) => (o.kind === 'refused' ? o.reason : o.kind))).toEqual([
      'xml_doctype',
      'decompressed_too_large',
      'decompressed_too_large',
      'zip_unsafe_name',
    ]);
    expect((await getDmarcFigures(f, principal(), 'dom_1', query())).totals.messages).toBe(0);
  });

  it('reads nothing for mail to other addresses, nor for a report about another domain', async () => {
    const f = await enabled();
    expect(
      await ingestDmarcReports(f, message(['support@inbound.example.com']), { attachments: [attachment('google.zip')], text: null }),
    ).toEqual([]);
    const other = fixture('smallisp.xml').toString().split('example.com').join('elsewhere.test');
    expect(
      await ingestDmarcReports(f, message(to), {
        attachments: [{ filename: 'r.xml', content_type: 'text/xml', content: Buffer.from(other) }],
        text: null,
      }),
    ).toEqual([{ kind: 'not_for_domain', part: 'r.xml', domain: 'elsewhere.test' }]);
    // A message without a report file asks for no address at all.
    const counting = {
      ...f,
      dmarcAddresses: {
        domainsFor: async () => {
          throw new Error('asked');
        },
      },
    };
    expect(
      await ingestDmarcReports(counting, message(to), {
        attachments: [{ filename: 'a.pdf', content_type: 'application/pdf', content: Buffer.from('%PDF') }],
        text: 'hello',
      }),
    ).toEqual([]);
  });

  it('a storage failure is counted as failed, not thrown (the received email is already recorded)', async () => {
    const f = await enabled();
    f.failSaves();
    expect(await ingestDmarcReports(f, message(to), { attachments: [attachment('yahoo.xml.gz')], text: null })).toEqual([
      { kind: 'failed', part: 'yahoo.xml.gz' },
    ]);
  });
});

describe('the figures', () => {
  it('pages the sources most messages first, filters a group, and checks the range and the cursor', async () => {
    const f = fakes([domain({ id: 'dom_1', name: 'example.com' })]);
    await changeDmarcReports(f, principal(), 'dom_1', { enabled: true });
    await ingestDmarcReports(f, message(['dmarc@inbound.example.com']), {
      attachments: ['google.zip', 'outlook.xml.gz', 'yahoo.xml.gz', 'smallisp.xml'].map((name) => attachment(name)),
      text: null,
    });
    const first = await getDmarcFigures(f, principal(), 'dom_1', query({ limit: 2 }));
    expect(first.sources.map((s) => [s.source_ip, s.messages])).toEqual([
      ['54.240.8.10', 206],
      ['54.240.8.12', 40],
    ]);
    expect(first.has_more).toBe(true);
    const rest = await getDmarcFigures(f, principal(), 'dom_1', query({ limit: 10, cursor: first.next_cursor! }));
    expect(rest.sources.map((s) => [s.source_ip, s.messages])).toEqual([
      ['54.240.8.11', 30],
      ['203.0.113.7', 21],
      ['2001:db8::25', 7],
      ['198.51.100.23', 5],
      ['192.0.2.99', 3],
    ]);
    expect({ has_more: rest.has_more, next_cursor: rest.next_cursor }).toEqual({ has_more: false, next_cursor: null });
    const others = await getDmarcFigures(f, principal(), 'dom_1', query({ group: 'others' }));
    expect(others.sources.map((s) => s.source_ip)).toEqual(['203.0.113.7', '2001:db8::25', '198.51.100.23', '192.0.2.99']);
    expect(others.days.map((d) => d.day)).toEqual(['2026-11-01', '2026-11-02']);

    // Defaults: the 30 days to today (the fake clock's 2026-11-03).
    const defaults = await getDmarcFigures(f, principal(), 'dom_1', { limit: 25 });
    expect({ since: defaults.since, until: defaults.until, days: defaults.days.length, messages: defaults.totals.messages }).toEqual({
      since: '2026-10-05',
      until: '2026-11-03',
      days: 30,
      messages: 312,
    });
    await expect(getDmarcFigures(f, principal(), 'dom_1', query({ since: '2026-11-03', until: '2026-11-02' }))).rejects.toThrow(
      /since must not be after until/,
    );
    await expect(getDmarcFigures(f, principal(), 'dom_1', query({ since: '2026-01-01', until: '2026-11-02' }))).rejects.toThrow(
      /at most 90 days/,
    );
    await expect(getDmarcFigures(f, principal(), 'dom_1', query({ cursor: 'garbage' }))).rejects.toThrow(/cursor is not a cursor/);
    await expect(getDmarcFigures(f, principal('acc_2'), 'dom_1', query())).rejects.toThrow(NotFoundError);
  });
});
