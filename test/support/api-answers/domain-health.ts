/**
 * Answers of GET /domains/{id}/health and GET /domains/{id}/dmarc as the API gives them, for the clients'
 * tests against a recorded API (the CLI's and the MCP server's).
 */

/** A stored check: two open findings (one with its record) and a fixed one. */
export const HEALTH_ANSWER = {
  object: 'domain_health',
  domain_id: 'dom_01',
  domain: 'example.com',
  checked_at: '2026-03-01T10:00:00.000Z',
  next_check_at: '2026-03-02T10:00:00.000Z',
  findings: [
    {
      type: 'spf_include_missing',
      check: 'spf',
      impact: 'high',
      status: 'open',
      message: 'The SPF record does not include ours.',
      record: { type: 'TXT', name: 'example.com', value: 'v=spf1 include:amazonses.com ~all' },
      docs_url: 'https://www.rfc-editor.org/rfc/rfc7208',
      first_seen_at: '2026-02-28T10:00:00.000Z',
      fixed_at: null,
    },
    {
      type: 'bimi_missing',
      check: 'bimi',
      impact: 'low',
      status: 'open',
      message: 'No BIMI record.',
      docs_url: 'https://bimigroup.org',
      first_seen_at: '2026-02-28T10:00:00.000Z',
      fixed_at: null,
    },
    {
      type: 'dmarc_missing',
      check: 'dmarc',
      impact: 'high',
      status: 'fixed',
      message: 'No DMARC record.',
      docs_url: 'https://www.rfc-editor.org/rfc/rfc7489',
      first_seen_at: '2026-02-20T10:00:00.000Z',
      fixed_at: '2026-02-27T10:00:00.000Z',
    },
  ],
  summary: {
    open: 2,
    high: 1,
    low: 1,
    spf_lookups: 3,
    checks: {
      spf: 'issues',
      dkim: 'ok',
      dmarc: 'ok',
      inbound_mx: 'skipped',
      mta_sts: 'ok',
      tls_rpt: 'ok',
      bimi: 'issues',
      reputation: 'skipped',
      link_domain: 'skipped',
    },
  },
};

/** One part of the figures (totals, ours, others, a source): `pass` of `messages` passed everything. */
export const dmarcPart = (messages: number, pass: number) => ({
  messages,
  dmarc_pass: pass,
  spf_aligned_pass: pass,
  dkim_aligned_pass: pass,
  pass_rate: messages ? Math.round((pass / messages) * 10_000) / 10_000 : 0,
  disposition: { none: messages, quarantine: 0, reject: 0 },
});

/** Two days of figures, ours and others, a page of two sources with more after it. */
export const DMARC_FIGURES_ANSWER = {
  object: 'dmarc_figures',
  domain_id: 'dom_01',
  domain: 'example.com',
  since: '2026-02-01',
  until: '2026-02-02',
  report_address: 'dmarc@inbound.example.com',
  totals: dmarcPart(120, 117),
  ours: dmarcPart(100, 100),
  others: dmarcPart(20, 17),
  reports: 3,
  reporters: ['google.com', 'yahoo.com'],
  days: [
    { day: '2026-02-01', messages: 60, dmarc_pass: 58, ours: { messages: 50, dmarc_pass: 50 }, others: { messages: 10, dmarc_pass: 8 } },
    { day: '2026-02-02', messages: 60, dmarc_pass: 59, ours: { messages: 50, dmarc_pass: 50 }, others: { messages: 10, dmarc_pass: 9 } },
  ],
  sources: [
    { source_ip: '192.0.2.1', group: 'ours', ...dmarcPart(100, 100), reporters: ['google.com', 'yahoo.com'], days: 2 },
    { source_ip: '198.51.100.7', group: 'others', ...dmarcPart(20, 17), reporters: ['google.com'], days: 2 },
  ],
  has_more: true,
  next_cursor: 'abc',
};
