/** Response schemas of the domains group: domains, DNS records, apply, health, DMARC figures, hosted MTA-STS and link domains. */
import * as z from 'zod';
import { DOMAIN_STATUSES, RECORD_PURPOSES, TLS_MODES, type toPublicDomain } from '#shared/domain/domains/domain';
import { DNS_HOSTS } from '#shared/domain/domains/dns-apply';
import { FINDING_TYPE_NAMES, HEALTH_CHECKS } from '#shared/domain/domains/health/finding';
import type { ApplyReport } from '#shared/usecases/domains/dns-apply';
import type { StoredDomainHealth } from '#shared/usecases/domains/stored-health';
import type { DmarcFigures } from '#shared/usecases/dmarc/figures';
import type { PublicInboundRoutes } from '#shared/usecases/inbound/inbound-routes';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';
import { HOSTING_STATUSES, type PublicHosting } from '#shared/domain/domains/mta-sts/hosting';
import { MTA_STS_MODES } from '#shared/domain/domains/mta-sts/policy';
import { DOMAIN_LINK_RECORD_PURPOSES, type PublicLinkDomain } from '#shared/domain/domains/link-domain/link-domain';

const RECORD_TYPES = ['TXT', 'CNAME', 'MX'] as const;

export const dnsRecordSchema = z.strictObject({
  purpose: z
    .enum([...RECORD_PURPOSES, ...DOMAIN_LINK_RECORD_PURPOSES])
    .describe(
      "what the record is for: ownership, DKIM key, return path (CNAME), SPF, DMARC or the inbound MX; with a link domain (GET /domains/{id}/link-domain) also its certificate's validation CNAME (link_certificate_validation) and the links.<domain> CNAME (link_host), listed last once known",
    ),
  type: z.enum(RECORD_TYPES).describe('the DNS record type'),
  name: z.string().describe('fully qualified host name'),
  value: z.string().describe('what to publish (for MX: the exchange host)'),
  priority: z.number().int().optional().describe('MX only'),
  required: z.boolean().describe("required to verify (DMARC, the inbound MX and the link domain's records are reported, not required)"),
  status: z
    .enum(['pending', 'verified', 'not_found', 'invalid', 'temporary_failure'])
    .describe('pending: never checked; not_found, invalid: fix it (see message); temporary_failure: the lookup failed, check again'),
  found: z.array(z.string()).optional().describe('values found at the last check'),
  message: z.string().optional().describe('what is wrong and how to fix it, when not verified'),
});

export const domainSchema = describing<ReturnType<typeof toPublicDomain>>()(
  z.strictObject({
    object: z.literal('domain').describe('always `domain`'),
    id: idOf('dom').describe("the domain's id (dom_...)"),
    name: z.string().describe('the domain name (lower case)'),
    status: z
      .enum(DOMAIN_STATUSES)
      .describe(
        'pending until every required record is verified and the mail provider can send from it (see provider); verified; failed: a later check found a required record missing or wrong (sends refused)',
      ),
    tenant: z.string().nullable().describe("the owning tenant's external_id; null when account-wide"),
    records: z.array(dnsRecordSchema).describe('the DNS records to publish, each with its status at the last check'),
    open_tracking: z.boolean().describe('a 1x1 pixel in the html of its emails and email.opened events (default false)'),
    click_tracking: z.boolean().describe('links of its emails go through a signed redirect and email.clicked events (default false)'),
    tls_mode: z
      .enum(TLS_MODES)
      .describe('opportunistic (default): TLS whenever the receiving server offers it; enforced: only over TLS, else the email bounces'),
    inbound_enabled: z.boolean().describe('receives mail on inbound.<domain> (chosen when the domain is added)'),
    inbound_subdomain: z.string().nullable().describe('the receive-only subdomain (inbound.<domain>) when inbound_enabled'),
    inbound_store_content: z
      .boolean()
      .describe(
        'false: mail received on the domain is recorded without its content, and email.received carries none (docs/redaction.md); true by default',
      ),
    dmarc_reports: z
      .strictObject({
        enabled: z.boolean().describe('true: aggregate reports sent to `address` are read and counted (GET /domains/{id}/dmarc)'),
        address: z.string().nullable().describe('where receivers send them (the suggested DMARC record names it in rua=); null when off'),
        authorization_record: z
          .strictObject({
            type: z.literal('TXT').describe('always TXT'),
            name: z.string().describe('<domain>._report._dmarc.<report domain>'),
            value: z.string().describe('v=DMARC1'),
          })
          .nullable()
          .describe(
            'the record receivers look for before sending reports to an address outside the domain (RFC 7489 section 7.1); null when the address is under the domain (or off)',
          ),
      })
      .describe(
        'DMARC aggregate reports read by the service (docs/deliverability.md, "DMARC aggregate reports"; PATCH with dmarc_reports)',
      ),
    created_at: timestamp.describe('when the domain was added (ISO 8601)'),
    updated_at: timestamp.describe('when the domain last changed (ISO 8601)'),
    verified_at: nullableTimestamp.describe('when it was first verified (ISO 8601); null until then'),
    last_checked_at: nullableTimestamp.describe('when DNS was last checked (ISO 8601); null until the first verify'),
    provider: z
      .strictObject({
        status: z
          .enum(['pending', 'verified', 'failed'])
          .describe(
            'pending: the mail provider (SES) has not yet confirmed the DKIM record (asked again every few minutes, and on verify and GET); verified: it can send from the domain; failed: it gave up (verify again)',
          ),
        message: z.string().describe('what the provider reported and what happens next'),
        checked_at: timestamp.describe('when the provider was last asked (ISO 8601)'),
      })
      .nullable()
      .describe(
        "the mail provider's own verification of the domain: null until every required record checked out; the domain is verified only once this is",
      ),
  }),
);

export const domainEnvelopeSchema = z.strictObject({ domain: domainSchema.describe('the domain') });

export const applyReportSchema = describing<ApplyReport>()(
  z.strictObject({
    provider: z.enum(DNS_HOSTS).describe('the DNS host written to'),
    zone: z
      .strictObject({
        id: z.string().describe("the zone's id at the DNS host"),
        name: z.string().describe("the zone's name (the domain or its longest parent with a zone; lower case)"),
      })
      .describe('the zone the records were written in'),
    credentials: z
      .enum(['request', 'stored', 'service'])
      .describe("where the credentials came from: this request's, stored ones, or the service's own role (Route 53)"),
    settled: z.boolean().nullable().describe('Route 53: whether the change was INSYNC before verifying'),
    records: z
      .array(
        z.strictObject({
          purpose: z.enum(RECORD_PURPOSES).describe("which of the domain's records"),
          type: z.enum(RECORD_TYPES).describe('the DNS record type'),
          name: z.string().describe('fully qualified host name'),
          value: z.string().describe('the value that is (or was to be) published: ours, the merged SPF record, or the kept DMARC policy'),
          action: z
            .enum(['created', 'updated', 'unchanged', 'failed'])
            .describe(
              'what apply did: created, updated (see previous), unchanged (already right, or a DMARC policy kept) or failed (see message)',
            ),
          previous: z.string().optional().describe('what was there before an update'),
          message: z.string().describe("what was done, or why it failed (the host's reason)"),
        }),
      )
      .describe('one entry per record of the domain'),
  }),
);

/** POST /domains/{id}: `apply` is there for {action: "apply"}. */
export const domainActionResultSchema = z.strictObject({
  domain: domainSchema.describe('the domain after the check'),
  apply: applyReportSchema.optional().describe('what apply wrote at the DNS host (only for {action: "apply"})'),
});

const checkOutcome = z.enum(['ok', 'issues', 'error', 'skipped']);

/** GET /domains/{id}/health (docs/deliverability.md, "Domain health"). */
export const domainHealthSchema = describing<StoredDomainHealth>()(
  z.strictObject({
    object: z.literal('domain_health').describe('always `domain_health`'),
    domain_id: idOf('dom').describe("the domain's id (dom_...)"),
    domain: z.string().describe('the domain name'),
    checked_at: timestamp.describe('when DNS was asked (ISO 8601)'),
    next_check_at: timestamp.describe('when the domain is checked next (daily)'),
    findings: z
      .array(
        z.strictObject({
          type: z
            .enum(FINDING_TYPE_NAMES)
            .describe('what was found (docs/deliverability.md has the table: each type, its impact and its source)'),
          check: z.enum(HEALTH_CHECKS).describe('the check family: spf, dkim, dmarc, inbound_mx, mta_sts, tls_rpt, bimi or reputation'),
          impact: z.enum(['high', 'low']).describe('high: mail fails authentication or is not received; low: a recommendation'),
          status: z
            .enum(['open', 'fixed'])
            .describe('open: found at the last check; fixed: open at an earlier check and gone at a later one (shown for 7 days)'),
          message: z.string().describe('what is wrong and what to do'),
          record: z
            .strictObject({
              type: z.enum(['TXT', 'MX']).describe('the DNS record type'),
              name: z.string().describe('fully qualified host name'),
              value: z.string().describe('the value to publish (MX: "<preference> <host>")'),
            })
            .optional()
            .describe('the record to publish, when one fixes it'),
          docs_url: z.string().describe('the public document (RFC section, draft, mailbox provider guideline) that says why'),
          first_seen_at: timestamp.describe('when a check first found it (this time it was open)'),
          fixed_at: timestamp.nullable().describe('when a check found it gone; null while open'),
        }),
      )
      .describe('the findings: open ones first, high impact first; none when every check passed and nothing was fixed lately'),
    summary: z
      .strictObject({
        open: z.number().int().describe('open findings'),
        high: z.number().int().describe('open findings of high impact'),
        low: z.number().int().describe('open findings of low impact'),
        spf_lookups: z
          .number()
          .int()
          .nullable()
          .describe(
            "DNS-querying terms of the SPF record, nested includes counted (RFC 7208's limit is 10); null without exactly one SPF record",
          ),
        checks: z
          .strictObject({
            spf: checkOutcome.describe('the SPF record at the domain and its includes'),
            dkim: checkOutcome.describe("the domain's DKIM key at <selector>._domainkey.<domain>"),
            dmarc: checkOutcome.describe('the DMARC record at _dmarc.<domain>'),
            inbound_mx: checkOutcome.describe('the MX of the receiving subdomain (skipped when the domain does not receive)'),
            mta_sts: checkOutcome.describe('the MTA-STS record at _mta-sts.<domain>'),
            tls_rpt: checkOutcome.describe('the TLS-RPT record at _smtp._tls.<domain>'),
            bimi: checkOutcome.describe('the BIMI record at default._bimi.<domain>'),
            reputation: checkOutcome.describe(
              "the bounce and complaint rates of the domain's sender (its tenant, or the account) over the last 7 days (skipped under 100 emails)",
            ),
            link_domain: checkOutcome.describe(
              'the link domain links.<domain> (docs/tracking.md): issues while it is not active; skipped when the domain has none',
            ),
          } satisfies Record<(typeof HEALTH_CHECKS)[number], z.ZodType>)
          .describe(
            'each check: ok, issues (findings to act on), error (a lookup failed: check again) or skipped (inbound_mx of a domain that does not receive)',
          ),
      })
      .describe('counts and the outcome of each check'),
  }),
);

const dmarcCount = z.number().int().min(0);
const dispositionSchema = z
  .strictObject({
    none: dmarcCount.describe('messages the receiver delivered as usual'),
    quarantine: dmarcCount.describe('messages it put in spam (p=quarantine applied)'),
    reject: dmarcCount.describe('messages it refused (p=reject applied)'),
  })
  .describe('what the receivers did with the messages');
const figuresShape = {
  messages: dmarcCount.describe("messages, as the receivers counted them (each record's count)"),
  dmarc_pass: dmarcCount.describe('messages that passed DMARC (aligned SPF or aligned DKIM passed)'),
  spf_aligned_pass: dmarcCount.describe('messages whose SPF passed and aligned with the From domain'),
  dkim_aligned_pass: dmarcCount.describe('messages whose DKIM passed and aligned with the From domain'),
  pass_rate: z.number().min(0).max(1).describe('dmarc_pass / messages, to 4 decimals (0 without messages)'),
  disposition: dispositionSchema,
};
const dmarcFiguresPartSchema = (what: string) => z.strictObject(figuresShape).describe(what);
const dayCounts = (what: string) =>
  z.strictObject({ messages: dmarcCount.describe('messages'), dmarc_pass: dmarcCount.describe('of which passed DMARC') }).describe(what);

/** GET /domains/{id}/dmarc (docs/deliverability.md, "DMARC aggregate reports"). */
export const dmarcFiguresSchema = describing<DmarcFigures>()(
  z.strictObject({
    object: z.literal('dmarc_figures').describe('always `dmarc_figures`'),
    domain_id: idOf('dom').describe("the domain's id (dom_...)"),
    domain: z.string().describe('the domain name'),
    since: z.string().describe('the first UTC day counted (YYYY-MM-DD)'),
    until: z.string().describe('the last UTC day counted (YYYY-MM-DD), included'),
    report_address: z
      .string()
      .nullable()
      .describe("the domain's report address now; null when reports are not read (figures already stored still count)"),
    totals: dmarcFiguresPartSchema('every message the reports counted in the range'),
    ours: dmarcFiguresPartSchema(
      "the service's sending: DKIM passed with d=<domain> and the domain's selector, or SPF passed for rp.<domain> or an amazonses.com MAIL FROM",
    ),
    others: dmarcFiguresPartSchema('everything else sending as the domain (its own servers, other providers, spoofers)'),
    reports: dmarcCount.describe('reports counted (each (reporter, report_id) once)'),
    reporters: z.array(z.string()).describe('the reporters (org_name) of those reports, alphabetical'),
    days: z
      .array(
        z.strictObject({
          day: z.string().describe("the UTC day (YYYY-MM-DD): the day each report's range begins"),
          messages: dmarcCount.describe('messages'),
          dmarc_pass: dmarcCount.describe('of which passed DMARC'),
          ours: dayCounts("the service's sending"),
          others: dayCounts('everything else'),
        }),
      )
      .describe('one entry per UTC day of the range, oldest first (zeros on days without reports)'),
    sources: z
      .array(
        z.strictObject({
          source_ip: z.string().describe('the sending IP address, as the receivers reported it'),
          group: z.enum(['ours', 'others']).describe("ours (the service's sending) or others"),
          ...figuresShape,
          reporters: z.array(z.string()).describe('the reporters that counted it (at most 10, alphabetical)'),
          days: dmarcCount.describe('UTC days of the range it sent on'),
        }),
      )
      .describe('a page of the sources (with ?group, of that group), most messages first'),
    has_more: z.boolean().describe('whether more sources follow'),
    next_cursor: z.string().nullable().describe('pass as ?cursor for the next page of sources; null on the last'),
  }),
);

/** A route as answered (the request's rules are shared/domain/domains/inbound-routes.ts). */
const inboundRouteView = z.strictObject({
  description: z.string().optional().describe('yours: shown, never used'),
  match: z
    .strictObject({
      recipient: z
        .string()
        .describe('billing (with or without +tag), support+* (tagged only), team-* (starts with) or * (all); lower case'),
      sender: z.string().optional().describe('the envelope sender: an address, or @example.org for a domain and its subdomains'),
    })
    .describe('which recipients (and senders) the route is for'),
  action: z
    .discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('webhooks').describe('email.received to these endpoints (or every subscribed one)'),
        webhook_ids: z.array(idOf('wh')).optional().describe('only these endpoints; absent: every endpoint subscribed to email.received'),
      }),
      z.strictObject({ type: z.literal('store').describe('recorded, no webhook') }),
      z.strictObject({
        type: z.literal('forward').describe('recorded, no webhook, and sent on to `to` from the domain itself'),
        to: z.array(z.string()).describe('the addresses it is forwarded to (lower case)'),
      }),
      z.strictObject({
        type: z.literal('refuse').describe('550 at RCPT TO; nothing stored'),
        message: z.string().optional().describe('the text of the 550 reply at RCPT TO'),
      }),
    ])
    .describe('what happens to their mail'),
});

/** GET and PUT /domains/{id}/inbound-routes (docs/inbound.md, "Routes"). */
export const inboundRoutesViewSchema = describing<PublicInboundRoutes>()(
  z.strictObject({
    object: z.literal('inbound_routes').describe('always `inbound_routes`'),
    domain_id: idOf('dom').describe("the domain's id (dom_...)"),
    receiving_domain: z.string().nullable().describe('the receiving subdomain the routes apply to (`inbound.<domain>`)'),
    routes: z.array(inboundRouteView).describe('in order: the first whose match holds for a recipient decides'),
    updated_at: nullableTimestamp.describe('when the routes were last set (ISO 8601); null when never'),
  }),
);

/** The records a hosted host's owner publishes (hosted MTA-STS policies, link domains), each with what the last check found. */
function hostingRecordsSchema<const Purpose extends string>(purposes: readonly [Purpose, ...Purpose[]], purpose: string, required: string) {
  return z.array(
    z.strictObject({
      purpose: z.enum(purposes).describe(purpose),
      type: z.enum(['CNAME', 'TXT']).describe('the DNS record type'),
      name: z.string().describe('fully qualified host name'),
      value: z.string().describe('what to publish'),
      required: z.boolean().describe(required),
      status: z.enum(['verified', 'pending']).describe('verified: found as given at the last check; pending: not (yet)'),
      found: z.array(z.string()).optional().describe('values found at the last check'),
    }),
  );
}

/** GET and PUT /domains/{id}/mta-sts (docs/deliverability.md, "Hosted MTA-STS policy"). */
export const mtaStsHostingSchema = describing<PublicHosting>()(
  z.strictObject({
    object: z.literal('mta_sts_hosting').describe('always `mta_sts_hosting`'),
    domain_id: idOf('dom').describe("the domain's id (dom_...)"),
    policy_domain: z.string().describe('the receiving subdomain the policy is for (`inbound.<domain>`)'),
    policy_url: z.string().describe('where senders fetch the policy: https://mta-sts.<policy domain>/.well-known/mta-sts.txt'),
    status: z
      .enum(HOSTING_STATUSES)
      .describe(
        'pending_certificate: publish the certificate_validation record; pending_dns: the policy is served, publish policy_host and policy; active: senders find it; failed: see message, PUT again to start over; removing: being taken down',
      ),
    message: z.string().nullable().describe('what happens next or what to do; null when active'),
    mode: z.enum(MTA_STS_MODES).describe('enforce, testing or none (RFC 8461 section 5)'),
    max_age: z.number().int().describe('how long senders keep the policy, in seconds'),
    mx: z.array(z.string()).describe("the MX hosts the policy names: the service's inbound MX"),
    policy_id: z.string().describe("the policy's id, in the policy TXT record; new whenever the policy changes"),
    records: hostingRecordsSchema(
      ['certificate_validation', 'policy_host', 'policy', 'tls_rpt'],
      "certificate_validation: ACM's CNAME that issues the host's certificate; policy_host: the CNAME of mta-sts.<policy domain>; policy: the TXT that announces the policy; tls_rpt: reports of TLS failures (recommended)",
      'needed for senders to use the policy',
    ).describe('the records to publish, in order (policy_host appears once the certificate is issued)'),
    checked_at: nullableTimestamp.describe('when the records were last looked up; null before'),
    next_check_at: nullableTimestamp.describe(
      'when the next step is taken (certificate: every minute; records: every 5 minutes for 3 days, then daily); null when failed',
    ),
    created_at: timestamp.describe('when hosting was asked for'),
    updated_at: timestamp.describe('when it last changed'),
  }),
);

/** DELETE /domains/{id}/mta-sts. */
export const mtaStsHostingDeletedSchema = z.strictObject({
  object: z.literal('mta_sts_hosting').describe('always `mta_sts_hosting`'),
  domain_id: idOf('dom').describe("the domain's id (dom_...)"),
  deleted: z
    .literal(true)
    .describe("always true: the policy is no longer served; its host's certificate and custom domain name are deleted within minutes"),
});

/** GET and PUT /domains/{id}/link-domain (docs/tracking.md, "Link domains"). */
export const linkDomainSchema = describing<PublicLinkDomain>()(
  z.strictObject({
    object: z.literal('link_domain').describe('always `link_domain`'),
    domain_id: idOf('dom').describe("the domain's id (dom_...)"),
    host: z.string().describe('the link domain: `links.<domain>`'),
    base_url: z
      .string()
      .describe("https://links.<domain>: where the domain's tracked links, pixels and unsubscribe links point once active"),
    status: z
      .enum(HOSTING_STATUSES)
      .describe(
        "pending_certificate: publish the certificate_validation record; pending_dns: the host is served, publish link_host; active: the domain's emails link to it; failed: see message, PUT again to start over; removing: being taken down",
      ),
    message: z.string().nullable().describe('what happens next or what to do; null when active'),
    records: hostingRecordsSchema(
      ['certificate_validation', 'link_host'],
      "certificate_validation: ACM's CNAME that issues the host's certificate; link_host: the CNAME of links.<domain>",
      'needed for the link domain to be used',
    ).describe('the records to publish, in order (link_host appears once the certificate is issued)'),
    checked_at: nullableTimestamp.describe('when the link_host record was last looked up; null before'),
    next_check_at: nullableTimestamp.describe(
      'when the next step is taken (certificate: every minute; records: every 5 minutes for 3 days, then daily); null when failed',
    ),
    created_at: timestamp.describe('when the link domain was asked for'),
    updated_at: timestamp.describe('when it last changed'),
  }),
);

/** DELETE /domains/{id}/link-domain. */
export const linkDomainDeletedSchema = z.strictObject({
  object: z.literal('link_domain').describe('always `link_domain`'),
  domain_id: idOf('dom').describe("the domain's id (dom_...)"),
  deleted: z
    .literal(true)
    .describe(
      "always true: the domain's links use the service's link host again at once; the host's certificate and custom domain name are deleted within minutes",
    ),
});
