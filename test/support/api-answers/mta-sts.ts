/**
 * Answers of GET, PUT and DELETE /domains/{id}/mta-sts as the API gives them, for the clients' tests
 * against a recorded API (the CLI's and the MCP server's).
 */

/** A policy just hosted, its certificate requested: the validation record listed, nothing checked yet. */
export const MTA_STS_PENDING_ANSWER = {
  object: 'mta_sts_hosting',
  domain_id: 'dom_01',
  policy_domain: 'inbound.example.com',
  policy_url: 'https://mta-sts.inbound.example.com/.well-known/mta-sts.txt',
  status: 'pending_certificate',
  message: 'Publish the certificate_validation record: the certificate is issued once ACM finds it.',
  mode: 'testing',
  max_age: 604800,
  mx: ['inbound.mailservice.dev'],
  policy_id: '202603011000001',
  records: [
    {
      purpose: 'certificate_validation',
      type: 'CNAME',
      name: '_a1.mta-sts.inbound.example.com',
      value: '_b2.acm-validations.aws',
      required: true,
      status: 'pending',
    },
    {
      purpose: 'policy',
      type: 'TXT',
      name: '_mta-sts.inbound.example.com',
      value: 'v=STSv1; id=202603011000001',
      required: true,
      status: 'pending',
    },
    {
      purpose: 'tls_rpt',
      type: 'TXT',
      name: '_smtp._tls.inbound.example.com',
      value: 'v=TLSRPTv1; rua=mailto:tls-reports@inbound.example.com',
      required: false,
      status: 'pending',
    },
  ],
  checked_at: null,
  next_check_at: '2026-03-01T10:01:00.000Z',
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
};

/** The same policy in enforce mode, served and found: every record verified with what the check found. */
export const MTA_STS_ACTIVE_ANSWER = {
  ...MTA_STS_PENDING_ANSWER,
  status: 'active',
  message: null,
  mode: 'enforce',
  max_age: 86400,
  policy_id: '202603021000003',
  records: [
    {
      purpose: 'certificate_validation',
      type: 'CNAME',
      name: '_a1.mta-sts.inbound.example.com',
      value: '_b2.acm-validations.aws',
      required: true,
      status: 'verified',
    },
    {
      purpose: 'policy_host',
      type: 'CNAME',
      name: 'mta-sts.inbound.example.com',
      value: 'd-abc123.execute-api.eu-west-1.amazonaws.com',
      required: true,
      status: 'verified',
      found: ['d-abc123.execute-api.eu-west-1.amazonaws.com'],
    },
    {
      purpose: 'policy',
      type: 'TXT',
      name: '_mta-sts.inbound.example.com',
      value: 'v=STSv1; id=202603021000003',
      required: true,
      status: 'verified',
      found: ['v=STSv1; id=202603021000003'],
    },
    {
      purpose: 'tls_rpt',
      type: 'TXT',
      name: '_smtp._tls.inbound.example.com',
      value: 'v=TLSRPTv1; rua=mailto:tls-reports@inbound.example.com',
      required: false,
      status: 'pending',
      found: [],
    },
  ],
  checked_at: '2026-03-02T10:05:00.000Z',
  next_check_at: '2026-03-03T10:05:00.000Z',
  updated_at: '2026-03-02T10:00:00.000Z',
};

export const MTA_STS_DELETED_ANSWER = { object: 'mta_sts_hosting', domain_id: 'dom_01', deleted: true };

/** GET of a domain without a hosted policy. */
export const MTA_STS_NOT_FOUND_ANSWER = { error: { message: 'MTA-STS policy dom_01 was not found.', code: 'not_found' } };

/** PUT for a domain that does not receive mail. */
export const MTA_STS_NOT_RECEIVING_ANSWER = {
  error: {
    message:
      'example.com does not receive mail: a hosted MTA-STS policy is for its receiving subdomain, whose MX is this service. Turn inbound_enabled on first (PATCH /domains/dom_01).',
    code: 'validation_error',
    details: { fields: [{ field: 'domain', message: 'example.com does not receive mail' }] },
  },
};

/** GET /domains with the domain, for a name looked up. */
export const DOMAIN_LIST_ANSWER = {
  domains: [{ id: 'dom_01', name: 'example.com', status: 'verified', records: [] }],
  has_more: false,
  next_cursor: null,
};
