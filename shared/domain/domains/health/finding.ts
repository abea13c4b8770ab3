/**
 * Domain health (docs/deliverability.md, "Domain health"): what a finding is, every finding type with its
 * check family, impact and the public source that says why, and the answer of GET /domains/{id}/health.
 * Pure: the check families (./spf.ts, ./dkim.ts, ./dmarc.ts, ./inbound-mx.ts, ./mta-sts.ts, ./tls-rpt.ts,
 * ./bimi.ts) read DNS answers and answer findings, ./link-domain.ts the link domain's state; ./index.ts runs them all.
 */
import type { Lookup } from '../evaluate';

export const HEALTH_CHECKS = ['spf', 'dkim', 'dmarc', 'inbound_mx', 'mta_sts', 'tls_rpt', 'bimi', 'reputation', 'link_domain'] as const;
export type HealthCheck = (typeof HEALTH_CHECKS)[number];

export type Impact = 'high' | 'low';

const RFC7208_LIMITS = 'https://www.rfc-editor.org/rfc/rfc7208#section-4.6.4';
const RFC7208_RECORD = 'https://www.rfc-editor.org/rfc/rfc7208#section-4.5';
const RFC7208_ALL = 'https://www.rfc-editor.org/rfc/rfc7208#section-5.1';
const RFC7208_INCLUDE = 'https://www.rfc-editor.org/rfc/rfc7208#section-5.2';
const RFC6376_KEY = 'https://www.rfc-editor.org/rfc/rfc6376#section-3.6.1';
const RFC7489_RECORD = 'https://www.rfc-editor.org/rfc/rfc7489#section-6.3';
const RFC7489_POLICY = 'https://www.rfc-editor.org/rfc/rfc7489#section-6.7';
const RFC7489_ALIGNMENT = 'https://www.rfc-editor.org/rfc/rfc7489#section-3.1.2';
const RFC7489_REPORTS = 'https://www.rfc-editor.org/rfc/rfc7489#section-7.2';
const RFC5321_MX = 'https://www.rfc-editor.org/rfc/rfc5321#section-5.1';
const RFC8461_TXT = 'https://www.rfc-editor.org/rfc/rfc8461#section-3.1';
const RFC8460_TXT = 'https://www.rfc-editor.org/rfc/rfc8460#section-3';
const BIMI_DRAFT = 'https://datatracker.ietf.org/doc/draft-brand-indicators-for-message-identification/';
const GOOGLE_SENDERS = 'https://support.google.com/a/answer/81126';
const SES_REVIEW_FAQ = 'https://docs.aws.amazon.com/ses/latest/dg/faqs-enforcement.html';
const LINK_BRANDING = 'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/how-to-set-up-link-branding';

/** Every finding type: its check family, its impact, and the public document that says why (`docs_url`). */
export const FINDING_TYPES = {
  dns_error: { check: null, impact: 'low', docs_url: RFC7208_RECORD },
  spf_missing: { check: 'spf', impact: 'high', docs_url: GOOGLE_SENDERS },
  spf_multiple: { check: 'spf', impact: 'high', docs_url: RFC7208_RECORD },
  spf_include_missing: { check: 'spf', impact: 'high', docs_url: RFC7208_INCLUDE },
  spf_too_many_lookups: { check: 'spf', impact: 'high', docs_url: RFC7208_LIMITS },
  spf_include_loop: { check: 'spf', impact: 'high', docs_url: RFC7208_LIMITS },
  spf_include_unresolvable: { check: 'spf', impact: 'high', docs_url: RFC7208_INCLUDE },
  spf_pass_all: { check: 'spf', impact: 'high', docs_url: RFC7208_ALL },
  spf_neutral_all: { check: 'spf', impact: 'low', docs_url: RFC7208_ALL },
  dkim_missing: { check: 'dkim', impact: 'high', docs_url: RFC6376_KEY },
  dkim_key_mismatch: { check: 'dkim', impact: 'high', docs_url: RFC6376_KEY },
  dmarc_missing: { check: 'dmarc', impact: 'high', docs_url: GOOGLE_SENDERS },
  dmarc_multiple: { check: 'dmarc', impact: 'high', docs_url: RFC7489_RECORD },
  dmarc_invalid: { check: 'dmarc', impact: 'high', docs_url: RFC7489_RECORD },
  dmarc_policy_none: { check: 'dmarc', impact: 'low', docs_url: RFC7489_POLICY },
  dmarc_no_reporting: { check: 'dmarc', impact: 'low', docs_url: RFC7489_REPORTS },
  dmarc_spf_alignment_strict: { check: 'dmarc', impact: 'low', docs_url: RFC7489_ALIGNMENT },
  inbound_mx_missing: { check: 'inbound_mx', impact: 'high', docs_url: RFC5321_MX },
  inbound_mx_wrong: { check: 'inbound_mx', impact: 'high', docs_url: RFC5321_MX },
  mta_sts_missing: { check: 'mta_sts', impact: 'low', docs_url: RFC8461_TXT },
  mta_sts_invalid: { check: 'mta_sts', impact: 'low', docs_url: RFC8461_TXT },
  tls_rpt_missing: { check: 'tls_rpt', impact: 'low', docs_url: RFC8460_TXT },
  tls_rpt_invalid: { check: 'tls_rpt', impact: 'low', docs_url: RFC8460_TXT },
  bimi_missing: { check: 'bimi', impact: 'low', docs_url: BIMI_DRAFT },
  bimi_invalid: { check: 'bimi', impact: 'low', docs_url: BIMI_DRAFT },
  complaint_rate_high: { check: 'reputation', impact: 'high', docs_url: GOOGLE_SENDERS },
  complaint_rate_elevated: { check: 'reputation', impact: 'low', docs_url: GOOGLE_SENDERS },
  bounce_rate_high: { check: 'reputation', impact: 'high', docs_url: SES_REVIEW_FAQ },
  bounce_rate_elevated: { check: 'reputation', impact: 'low', docs_url: SES_REVIEW_FAQ },
  reputation_blocks: { check: 'reputation', impact: 'high', docs_url: GOOGLE_SENDERS },
  content_blocks: { check: 'reputation', impact: 'low', docs_url: GOOGLE_SENDERS },
  link_domain_not_active: { check: 'link_domain', impact: 'low', docs_url: LINK_BRANDING },
} as const satisfies Record<string, { check: HealthCheck | null; impact: Impact; docs_url: string }>;

export type FindingType = keyof typeof FINDING_TYPES;
export const FINDING_TYPE_NAMES = Object.keys(FINDING_TYPES) as [FindingType, ...FindingType[]];

/** A record to publish, as a DNS host's form asks for it (MX: "<preference> <host>"). */
export interface RecordToPublish {
  type: 'TXT' | 'MX';
  name: string;
  value: string;
}

/**
 * One finding. `status` is `open` in a live check; `fixed` (a finding open at the last stored check and
 * gone now) comes with stored checks, not built yet: a fixed record's finding is absent.
 */
export interface HealthFinding {
  type: FindingType;
  check: HealthCheck;
  impact: Impact;
  status: 'open' | 'fixed';
  message: string;
  record?: RecordToPublish;
  docs_url: string;
}

export function finding(type: Exclude<FindingType, 'dns_error'>, message: string, record?: RecordToPublish): HealthFinding {
  const { check, impact, docs_url } = FINDING_TYPES[type];
  return { type, check, impact, status: 'open', message, ...(record ? { record } : {}), docs_url };
}

/** A lookup that failed (timeout, SERVFAIL): the check could not run, which is a finding of its own. */
export function dnsError(check: HealthCheck, name: string, lookup: { message: string }): HealthFinding {
  const { impact } = FINDING_TYPES.dns_error;
  return {
    type: 'dns_error',
    check,
    impact,
    status: 'open',
    message: `The DNS lookup of ${name} failed (${lookup.message}), so the ${check.replace('_', '-')} check could not run; this is usually temporary, check again later.`,
    docs_url: CHECK_DOCS[check],
  };
}

const CHECK_DOCS: Record<HealthCheck, string> = {
  spf: RFC7208_RECORD,
  dkim: RFC6376_KEY,
  dmarc: RFC7489_RECORD,
  inbound_mx: RFC5321_MX,
  mta_sts: RFC8461_TXT,
  tls_rpt: RFC8460_TXT,
  bimi: BIMI_DRAFT,
  reputation: SES_REVIEW_FAQ,
  link_domain: LINK_BRANDING,
};

/** TXT values at a name that start with `prefix` (a version tag such as `v=DMARC1`), compared without case. */
export function recordsStartingWith(lookup: Extract<Lookup, { kind: 'found' } | { kind: 'none' }>, prefix: RegExp): string[] {
  return lookup.kind === 'found' ? lookup.values.map((value) => value.trim()).filter((value) => prefix.test(value)) : [];
}

/**
 * A `tag=value; ...` list (DMARC, MTA-STS, TLS-RPT, BIMI records): tag names lower-cased, values trimmed;
 * null when a part has no `=` or a tag repeats (each of those RFCs makes such a record invalid).
 */
export function parseTagList(value: string): Map<string, string> | null {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const tag = part.slice(0, eq).trim().toLowerCase();
    if (!tag || tags.has(tag)) return null;
    tags.set(tag, part.slice(eq + 1).trim());
  }
  return tags;
}
