/**
 * The report fixtures (test/fixtures/dmarc/, built by its build.ts from test/fixtures/dmarc/source) read into the figures
 * docs/deliverability.md documents ("DMARC aggregate reports"), and every hostile one refused with its
 * named reason, quickly and without inflating what it promises.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseReportFile } from '#shared/domain/dmarc/report-file';
import { ReportRefused } from '#shared/domain/dmarc/refusal';
import { reportRows } from '#shared/domain/dmarc/report-rows';
import { rangeFigures } from '#shared/domain/dmarc/figures';
import { FIXTURE_DOMAIN, FIXTURE_SELECTOR, hostileReports, receiverReports } from '../../fixtures/dmarc/build';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/dmarc', name));
const ours = { domain: FIXTURE_DOMAIN, selector: FIXTURE_SELECTOR };
const rowsOf = (name: string) => reportRows(parseReportFile(fixture(name)), ours);
const none = { none: 0, quarantine: 0, reject: 0 };

function refusalOf(content: Uint8Array): string {
  try {
    parseReportFile(content);
  } catch (error) {
    if (error instanceof ReportRefused) return error.reason;
    throw error;
  }
  throw new Error('not refused');
}

describe('DMARC report fixtures of the large receivers', () => {
  it('the committed fixtures are what build.ts makes (the figures below are of those files)', () => {
    for (const [name, data] of Object.entries({ ...receiverReports(), ...hostileReports() }))
      expect({ name, same: fixture(name).equals(data) }).toEqual({ name, same: true });
  });

  it("Google (zip): 4 records, 167 messages; ours 150 from 2 IPs, others 17 (a spoofer, the domain's own Workspace)", () => {
    const report = rowsOf('google.zip');
    expect(report).toMatchObject({
      reporter: 'google.com',
      reporter_email: 'noreply-dmarc-support@google.com',
      report_id: '5717107811868587391',
      domain: 'example.com',
      day: '2026-11-01',
      begin: '2026-11-01T00:00:00.000Z',
      end: '2026-11-01T23:59:59.000Z',
      records: 4,
    });
    expect(report.rows).toEqual([
      {
        source_ip: '54.240.8.10',
        group: 'ours',
        messages: 120,
        dmarc_pass: 120,
        spf_aligned_pass: 120,
        dkim_aligned_pass: 120,
        disposition: { ...none, none: 120 },
      },
      {
        source_ip: '54.240.8.11',
        group: 'ours',
        messages: 30,
        dmarc_pass: 30,
        spf_aligned_pass: 30,
        dkim_aligned_pass: 30,
        disposition: { ...none, none: 30 },
      },
      {
        source_ip: '203.0.113.7',
        group: 'others',
        messages: 12,
        dmarc_pass: 0,
        spf_aligned_pass: 0,
        dkim_aligned_pass: 0,
        disposition: { ...none, none: 12 },
      },
      {
        source_ip: '198.51.100.23',
        group: 'others',
        messages: 5,
        dmarc_pass: 5,
        spf_aligned_pass: 0,
        dkim_aligned_pass: 5,
        disposition: { ...none, none: 5 },
      },
    ]);
  });

  it('Microsoft (gzip, a default namespace, envelope_to, reason): 3 records, 90 messages; ours 80, others 10 (7 quarantined)', () => {
    const report = rowsOf('outlook.xml.gz');
    expect(report).toMatchObject({
      reporter: 'Enterprise Outlook',
      report_id: '9f3b1c6e2a7d4e0f8b5a3c1d2e4f6a8b',
      day: '2026-11-02',
      records: 3,
    });
    expect(report.rows).toEqual([
      {
        source_ip: '54.240.8.10',
        group: 'ours',
        messages: 80,
        dmarc_pass: 80,
        spf_aligned_pass: 80,
        dkim_aligned_pass: 80,
        disposition: { ...none, none: 80 },
      },
      {
        source_ip: '2001:db8::25',
        group: 'others',
        messages: 7,
        dmarc_pass: 0,
        spf_aligned_pass: 0,
        dkim_aligned_pass: 0,
        disposition: { ...none, quarantine: 7 },
      },
      {
        source_ip: '192.0.2.99',
        group: 'others',
        messages: 3,
        dmarc_pass: 3,
        spf_aligned_pass: 3,
        dkim_aligned_pass: 0,
        disposition: { ...none, none: 3 },
      },
    ]);
  });

  it('Yahoo (gzip): 2 records, 49 messages; ours 40, others 9 rejected', () => {
    const report = rowsOf('yahoo.xml.gz');
    expect(report).toMatchObject({ reporter: 'Yahoo', report_id: '1793491200.418276', day: '2026-11-01', records: 2 });
    expect(report.rows).toEqual([
      {
        source_ip: '54.240.8.12',
        group: 'ours',
        messages: 40,
        dmarc_pass: 40,
        spf_aligned_pass: 40,
        dkim_aligned_pass: 40,
        disposition: { ...none, none: 40 },
      },
      {
        source_ip: '203.0.113.7',
        group: 'others',
        messages: 9,
        dmarc_pass: 0,
        spf_aligned_pass: 0,
        dkim_aligned_pass: 0,
        disposition: { ...none, reject: 9 },
      },
    ]);
  });

  it("a small receiver (plain XML, dmarc: prefixes): ours by DKIM, SPF by SES's own MAIL FROM (not aligned)", () => {
    const report = rowsOf('smallisp.xml');
    expect(report).toMatchObject({ reporter: 'mx.smallisp.test', report_id: '00042', day: '2026-11-01', records: 1 });
    expect(report.rows).toEqual([
      {
        source_ip: '54.240.8.10',
        group: 'ours',
        messages: 6,
        dmarc_pass: 6,
        spf_aligned_pass: 0,
        dkim_aligned_pass: 6,
        disposition: { ...none, none: 6 },
      },
    ]);
  });

  it('the four together: 312 messages, 276 ours, 36 others over two days; 203.0.113.7 counted by two reporters', () => {
    const names = ['google.zip', 'outlook.xml.gz', 'yahoo.xml.gz', 'smallisp.xml'];
    const rows = names.flatMap((name) => {
      const report = rowsOf(name);
      return report.rows.map((row) => ({ ...row, day: report.day, reporter: report.reporter }));
    });
    const figures = rangeFigures(rows, '2026-11-01', '2026-11-02', 4);
    expect(figures.totals).toEqual({
      messages: 312,
      dmarc_pass: 284,
      spf_aligned_pass: 273,
      dkim_aligned_pass: 281,
      pass_rate: 0.9103,
      disposition: { none: 296, quarantine: 7, reject: 9 },
    });
    expect(figures.ours).toMatchObject({ messages: 276, dmarc_pass: 276, pass_rate: 1 });
    expect(figures.others).toMatchObject({ messages: 36, dmarc_pass: 8, pass_rate: 0.2222 });
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
    expect(figures.sources[0]).toEqual({
      source_ip: '54.240.8.10',
      group: 'ours',
      messages: 206,
      dmarc_pass: 206,
      spf_aligned_pass: 200,
      dkim_aligned_pass: 206,
      pass_rate: 1,
      disposition: { none: 206, quarantine: 0, reject: 0 },
      reporters: ['Enterprise Outlook', 'google.com', 'mx.smallisp.test'],
      days: 2,
    });
    expect(figures.sources.find((source) => source.source_ip === '203.0.113.7')).toMatchObject({
      group: 'others',
      messages: 21,
      dmarc_pass: 0,
      reporters: ['Yahoo', 'google.com'],
      disposition: { none: 12, quarantine: 0, reject: 9 },
    });
    expect(figures.reporters).toEqual(['Enterprise Outlook', 'Yahoo', 'google.com', 'mx.smallisp.test']);
  });
});

describe('hostile report files', () => {
  it.each([
    ['xxe.xml', 'xml_doctype'],
    ['billion-laughs.xml', 'xml_doctype'],
    ['not-a-report.xml', 'not_a_report'],
    ['bad-record.xml', 'not_a_report'],
    ['gzip-bomb.xml.gz', 'decompressed_too_large'],
    ['zip-bomb.zip', 'decompressed_too_large'],
    ['zip-bomb-lying.zip', 'zip_size_mismatch'],
    ['many-entries.zip', 'zip_too_many_entries'],
    ['traversal.zip', 'zip_unsafe_name'],
    ['truncated.xml.gz', 'gzip_invalid'],
    ['huge-records.xml.gz', 'too_many_records'],
  ])('%s is refused: %s', (name, reason) => {
    // The reason says where it stopped: before parsing (a DOCTYPE), at the inflated bound (never the 64 MiB a
    // bomb promises), at the zip directory's count or names (nothing inflated). No timed assertion: under load a
    // time limit failed the suite while the refusal was right.
    expect(refusalOf(fixture(name))).toBe(reason);
  });

  it('refuses a file over the compressed bound, a corrupt zip, a zip without XML, bytes that are no report', () => {
    expect(refusalOf(Buffer.alloc(10 * 1024 * 1024 + 1, 0x3c))).toBe('file_too_large');
    expect(refusalOf(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]))).toBe('zip_invalid');
    expect(refusalOf(fixture('many-entries.zip').subarray(0, 5000))).toBe('zip_invalid');
    expect(refusalOf(Buffer.from('%PDF-1.4'))).toBe('not_a_report');
    expect(refusalOf(Buffer.from('<feedback><report_metadata>'))).toBe('xml_invalid');
    expect(refusalOf(Buffer.from(`<a>${'<b>'.repeat(30)}${'</b>'.repeat(30)}</a>`))).toBe('xml_invalid');
  });

  it('never expands an entity: &amp; and the like stay as written', () => {
    const xml = readFileSync(join(__dirname, '../../fixtures/dmarc/source/yahoo.xml'), 'utf8').replace(
      '<org_name>Yahoo</org_name>',
      '<org_name>Yahoo &amp; Co &#65;</org_name>',
    );
    expect(parseReportFile(Buffer.from(xml)).report_metadata.org_name).toBe('Yahoo &amp; Co &#65;');
  });
});
