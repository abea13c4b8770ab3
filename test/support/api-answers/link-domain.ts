/**
 * Answers of GET, PUT and DELETE /domains/{id}/link-domain as the API gives them, for the clients' tests
 * against a recorded API (the CLI's and the MCP server's).
 */

/** A link domain just asked for: its certificate not requested yet, so no record to publish yet. */
export const LINK_DOMAIN_REQUESTED_ANSWER = {
  object: 'link_domain',
  domain_id: 'dom_01',
  host: 'links.example.com',
  base_url: 'https://links.example.com',
  status: 'pending_certificate',
  message: 'Requesting the certificate of the link domain: its validation record is listed here within a minute.',
  records: [],
  checked_at: null,
  next_check_at: '2026-03-01T10:00:00.000Z',
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
};

/** The same link domain served (its certificate issued): the host's CNAME to publish, not found at the last check. */
export const LINK_DOMAIN_SERVED_ANSWER = {
  ...LINK_DOMAIN_REQUESTED_ANSWER,
  status: 'pending_dns',
  message:
    "The link domain is served; publish the link_host CNAME (links.example.com to d-abc123.execute-api.eu-west-1.amazonaws.com) so that the domain's links use it.",
  records: [
    {
      purpose: 'certificate_validation',
      type: 'CNAME',
      name: '_a1.links.example.com',
      value: '_b2.acm-validations.aws',
      required: true,
      status: 'verified',
    },
    {
      purpose: 'link_host',
      type: 'CNAME',
      name: 'links.example.com',
      value: 'd-abc123.execute-api.eu-west-1.amazonaws.com',
      required: true,
      status: 'pending',
      found: [],
    },
  ],
  checked_at: '2026-03-01T10:10:00.000Z',
  next_check_at: '2026-03-01T10:15:00.000Z',
  updated_at: '2026-03-01T10:09:00.000Z',
};

/** Found: active, no message, the host's CNAME verified with what the check found. */
export const LINK_DOMAIN_ACTIVE_ANSWER = {
  ...LINK_DOMAIN_SERVED_ANSWER,
  status: 'active',
  message: null,
  records: [
    LINK_DOMAIN_SERVED_ANSWER.records[0],
    {
      ...LINK_DOMAIN_SERVED_ANSWER.records[1],
      status: 'verified',
      found: ['d-abc123.execute-api.eu-west-1.amazonaws.com'],
    },
  ],
  checked_at: '2026-03-02T10:05:00.000Z',
  next_check_at: '2026-03-03T10:05:00.000Z',
  updated_at: '2026-03-02T10:05:00.000Z',
};

export const LINK_DOMAIN_DELETED_ANSWER = { object: 'link_domain', domain_id: 'dom_01', deleted: true };

/** GET of a domain without a link domain. */
export const LINK_DOMAIN_NOT_FOUND_ANSWER = { error: { message: 'Link domain dom_01 was not found.', code: 'not_found' } };

/** PUT for a domain not verified yet. */
export const LINK_DOMAIN_NOT_VERIFIED_ANSWER = {
  error: {
    message: 'example.com is not verified yet: verify it before giving it a link domain.',
    code: 'validation_error',
    details: { fields: [{ field: 'domain', message: 'example.com is not verified yet: verify it before giving it a link domain.' }] },
  },
};

/** PUT of one link domain more than the plan allows. */
export const LINK_DOMAIN_PLAN_LIMIT_ANSWER = {
  error: {
    message:
      'The free plan includes 1 link domain; delete one (its place is free once its removal completes, within a few minutes) or upgrade to host more.',
    code: 'plan_limit',
    details: { limit: 1, resource: 'link_domains', plan: 'free' },
    upgrade_url: 'http://127.0.0.1:3000/dashboard/settings/billing',
  },
};
