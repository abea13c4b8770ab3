/**
 * A receiving domain's hosted MTA-STS policy (docs/deliverability.md, "Hosted MTA-STS policy"): the stored
 * state of its policy host `mta-sts.<policy domain>` as it is provisioned in AWS, and what the API shows. Pure.
 *
 *   pending_certificate  ACM certificate requested for the host (DNS validation): publish its validation record
 *   pending_dns          certificate issued, the host's custom domain name created and mapped: the policy is
 *                        served; publish the host's CNAME and the announcing TXT record
 *   active               both records found: senders can find and fetch the policy
 *   failed               the certificate could not be issued (validation timed out or failed) or AWS refused a
 *                        step (a quota): `message` says what; PUT again starts over
 *   removing             being taken down (DELETE, or the domain deleted): custom domain name and certificate
 *                        deleted, then the item
 */
import * as z from 'zod';
import { MTA_STS_MODES, policyHostOf, policyRecordName, policyRecordValue, tlsRptRecordName, tlsRptRecordValue } from './policy';

export const HOSTING_STATUSES = ['pending_certificate', 'pending_dns', 'active', 'failed', 'removing'] as const;
export type HostingStatus = (typeof HOSTING_STATUSES)[number];

/** The policy is served (the host's custom domain name exists with an issued certificate) in these states. */
export const SERVING_STATUSES: readonly HostingStatus[] = ['pending_dns', 'active'];

const recordSchema = z.object({ name: z.string(), value: z.string() });

/** What the last DNS check found of the records the owner publishes (absent: not checked yet). */
export const hostingDnsSchema = z.object({
  checked_at: z.string(),
  host_cname: z.array(z.string()),
  policy_txt: z.array(z.string()),
  tls_rpt_txt: z.array(z.string()),
});

export const storedHostingSchema = z.object({
  policy_domain: z.string(),
  domain_id: z.string(),
  /** The owning account (read by operators; a request's access goes by the domain, read first). */
  account_id: z.string(),
  mode: z.enum(MTA_STS_MODES),
  max_age: z.number(),
  policy_id: z.string(),
  /** The MX hosts the policy names: the service's INBOUND_MX_HOST when it was configured. */
  mx: z.array(z.string()),
  status: z.enum(HOSTING_STATUSES),
  message: z.string().nullable().default(null),
  /** Starts over (a new certificate request) at each PUT after a failure: part of ACM's idempotency token. */
  attempt: z.number(),
  certificate_arn: z.string().nullable().default(null),
  /** A failed attempt's certificate, deleted by the next step (it is used by nothing). */
  stale_certificate_arn: z.string().nullable().default(null),
  validation_record: recordSchema.nullable().default(null),
  /** The custom domain name's target (`d-....execute-api.<region>.amazonaws.com`): the host's CNAME value. */
  target: z.string().nullable().default(null),
  dns: hostingDnsSchema.nullable().default(null),
  /** When the current attempt began (ACM gives up validating after 72 hours). */
  attempt_started_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Every write is conditional on it. */
  version: z.number(),
  /**
   * Its creation took a place of the account's bound (the plan's `mtaStsPolicies`), given back when its removal
   * completes. Policies stored before the bound existed took none (false), so they give none back.
   */
  plan_slot: z.boolean().default(false),
});
export type StoredHosting = z.output<typeof storedHostingSchema>;

export type HostingRecordPurpose = 'certificate_validation' | 'policy_host' | 'policy' | 'tls_rpt';

export interface HostingRecord {
  purpose: HostingRecordPurpose;
  type: 'CNAME' | 'TXT';
  name: string;
  value: string;
  /** Needed for senders to use the policy (TLS-RPT is recommended, not needed). */
  required: boolean;
  /** verified: found as given; pending: not found (yet), or not checked yet. */
  status: 'verified' | 'pending';
  found?: string[];
}

const sameName = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** The `_mta-sts` TXT values that announce STSv1 (RFC 8461 section 3.1: exactly one, else none counts). */
export function announcingRecords(values: string[]): string[] {
  return values.filter((value) => /^v=STSv1\s*(;|$)/.test(value.trim()));
}

/** Whether the published records let senders find this policy: the host's CNAME to the target, one TXT with its id. */
export function hostCnameFound(hosting: Pick<StoredHosting, 'target'>, found: string[]): boolean {
  return hosting.target !== null && found.some((value) => sameName(value, hosting.target!));
}
export function policyRecordFound(hosting: Pick<StoredHosting, 'policy_id'>, found: string[]): boolean {
  const announcing = announcingRecords(found);
  return announcing.length === 1 && new RegExp(`(^|;)\\s*id=${hosting.policy_id}\\s*(;|$)`).test(announcing[0]!);
}

/** The records to publish, in the order to publish them, with what the last check found. */
export function hostingRecords(hosting: StoredHosting): HostingRecord[] {
  const records: HostingRecord[] = [];
  // The host's custom domain name is created only once its certificate is issued.
  const certificateValidated = hosting.target !== null;
  const dns = hosting.dns;
  if (hosting.validation_record) {
    records.push({
      purpose: 'certificate_validation',
      type: 'CNAME',
      name: hosting.validation_record.name,
      value: hosting.validation_record.value,
      required: true,
      status: certificateValidated ? 'verified' : 'pending',
    });
  }
  if (hosting.target) {
    records.push({
      purpose: 'policy_host',
      type: 'CNAME',
      name: policyHostOf(hosting.policy_domain),
      value: hosting.target,
      required: true,
      status: dns && hostCnameFound(hosting, dns.host_cname) ? 'verified' : 'pending',
      ...(dns ? { found: dns.host_cname } : {}),
    });
  }
  records.push({
    purpose: 'policy',
    type: 'TXT',
    name: policyRecordName(hosting.policy_domain),
    value: policyRecordValue(hosting.policy_id),
    required: true,
    status: dns && policyRecordFound(hosting, dns.policy_txt) ? 'verified' : 'pending',
    ...(dns ? { found: dns.policy_txt } : {}),
  });
  const tlsRpt = tlsRptRecordValue(hosting.policy_domain);
  records.push({
    purpose: 'tls_rpt',
    type: 'TXT',
    name: tlsRptRecordName(hosting.policy_domain),
    value: tlsRpt,
    required: false,
    status: dns?.tls_rpt_txt.some((value) => /^v=TLSRPTv1\s*(;|$)/.test(value.trim())) ? 'verified' : 'pending',
    ...(dns ? { found: dns.tls_rpt_txt } : {}),
  });
  return records;
}

/** The answer of GET/PUT /domains/{id}/mta-sts. */
export function toPublicHosting(hosting: StoredHosting, nextCheckAt: string | null) {
  return {
    object: 'mta_sts_hosting' as const,
    domain_id: hosting.domain_id,
    policy_domain: hosting.policy_domain,
    policy_url: `https://${policyHostOf(hosting.policy_domain)}/.well-known/mta-sts.txt`,
    status: hosting.status,
    message: hosting.message,
    mode: hosting.mode,
    max_age: hosting.max_age,
    mx: hosting.mx,
    policy_id: hosting.policy_id,
    records: hostingRecords(hosting),
    checked_at: hosting.dns?.checked_at ?? null,
    next_check_at: nextCheckAt,
    created_at: hosting.created_at,
    updated_at: hosting.updated_at,
  };
}
export type PublicHosting = ReturnType<typeof toPublicHosting>;
