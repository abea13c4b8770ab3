/** The dashboard's DMARC section: figures from strangers' reports are shown as text, never markup. */
import { dmarcSection } from '#functions/api/dashboard-domains/dmarc-section';
import { html } from '#functions/api/dashboard/pages/layout';
import { rangeFigures } from '#shared/domain/dmarc/figures';
import type { DmarcFigures } from '#shared/usecases/dmarc/figures';

const row = {
  source_ip: '203.0.113.7',
  group: 'others' as const,
  messages: 9,
  dmarc_pass: 0,
  spf_aligned_pass: 0,
  dkim_aligned_pass: 0,
  disposition: { none: 0, quarantine: 0, reject: 9 },
  day: '2026-11-01',
  reporter: '<script>alert(1)</script>',
};

function figures(reportAddress: string | null, rows = [row]): DmarcFigures {
  const range = rangeFigures(rows, '2026-11-01', '2026-11-02', rows.length);
  return {
    object: 'dmarc_figures',
    domain_id: 'dom_1',
    domain: 'example.com',
    since: '2026-11-01',
    until: '2026-11-02',
    report_address: reportAddress,
    ...range,
    has_more: false,
    next_cursor: null,
  };
}

describe('the domain page DMARC section', () => {
  it('shows the days, the rates and the other senders, escaping what reports say', () => {
    const page = String(dmarcSection(figures('dmarc@inbound.example.com'), html`<form>`));
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).toContain('<code>203.0.113.7</code>');
    expect(page).toContain('9 messages, 0.0% passed DMARC');
    expect(page).toContain('<th scope="row">2026-11-02</th>');
  });

  it('says how to turn reports on when they are off, with the form that does', () => {
    const off = String(dmarcSection(figures(null, []), html`<form id="turn-on">`));
    expect(off).toContain('Aggregate reports are not read for this domain');
    expect(off).toContain('<form id="turn-on">');
    // While reports are read, no such form.
    expect(String(dmarcSection(figures('dmarc@inbound.example.com'), html`<form id="turn-on">`))).not.toContain('turn-on');
  });
});
