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
import { hostHostingFields, hostRecords, type HostingRecord, type HostingStatus } from '../hosting/host-hosting';
import { MTA_STS_MODES, policyHostOf, policyRecordName, policyRecordValue, tlsRptRecordName, tlsRptRecordValue } from './policy';

export { HOSTING_STATUSES, SERVING_STATUSES, hostCnameFound } from '../hosting/host-hosting';
export type { HostingStatus };

/** What the last DNS check found of the records the owner publishes (absent: not checked yet). */
export const hostingDnsSchema = z.object({
  checked_at: z.string(),
  host_cname: z.array(z.string()),
  policy_txt: z.array(z.string()),
  tls_rpt_txt: z.array(z.string()),
});

export const storedHostingSchema = z.object({
  ...hostHostingFields,
  policy_domain: z.string(),
  mode: z.enum(MTA_STS_MODES),
  max_age: z.number(),
  policy_id: z.string(),
  /** The MX hosts the policy names: the service's INBOUND_MX_HOST when it was configured. */
  mx: z.array(z.string()),
  dns: hostingDnsSchema.nullable().default(null),
  /**
   * Its creation took a place of the account's bound (the plan's `mtaStsPolicies`), given back when its removal
   * completes. Policies stored before the bound existed took none (false), so they give none back.
   */
  plan_slot: z.boolean().default(false),
});
export type StoredHosting = z.output<typeof storedHostingSchema>;

export type HostingRecordPurpose = 'certificate_validation' | 'policy_host' | 'policy' | 'tls_rpt';
export type MtaStsRecord = HostingRecord<HostingRecordPurpose>;

/** The `_mta-sts` TXT values that announce STSv1 (RFC 8461 section 3.1: exactly one, else none counts). */
export function announcingRecords(values: string[]): string[] {
  return values.filter((value) => /^v=STSv1\s*(;|$)/.test(value.trim()));
}

/** Whether the published records let senders find this policy: with the host's CNAME to the target, one TXT with its id. */
export function policyRecordFound(hosting: Pick<StoredHosting, 'policy_id'>, found: string[]): boolean {
  const announcing = announcingRecords(found);
  return announcing.length === 1 && new RegExp(`(^|;)\\s*id=${hosting.policy_id}\\s*(;|$)`).test(announcing[0]!);
}

/** The records to publish, in the order to publish them, with what the last check found. */
export function hostingRecords(hosting: StoredHosting): MtaStsRecord[] {
  const dns = hosting.dns;
  const records: MtaStsRecord[] = hostRecords(hosting, {
    name: policyHostOf(hosting.policy_domain),
    purpose: 'policy_host',
    found: dns ? dns.host_cname : null,
  });
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
