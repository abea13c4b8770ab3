/**
 * A host the service serves over HTTPS on a customer's own domain, with a certificate it obtains (ACM) and a
 * custom domain name (API Gateway) mapped to one of its APIs: the hosted MTA-STS policy host
 * `mta-sts.<receiving subdomain>` (../mta-sts/hosting.ts) and, to come, a sending domain's link domain
 * `links.<domain>`. What both store of the host's provisioning, and the records both list. Pure.
 *
 *   pending_certificate  ACM certificate requested for the host (DNS validation): publish its validation record
 *   pending_dns          certificate issued, the host's custom domain name created and mapped: the host is
 *                        served; publish its CNAME (and what else the kind needs)
 *   active               the owner's records found: the host is in use
 *   failed               the certificate could not be issued (validation timed out or failed) or AWS refused a
 *                        step (a quota): `message` says what; PUT again starts over
 *   removing             being taken down (DELETE, or the domain deleted): custom domain name and certificate
 *                        deleted, then the item
 */
import * as z from 'zod';

export const HOSTING_STATUSES = ['pending_certificate', 'pending_dns', 'active', 'failed', 'removing'] as const;
export type HostingStatus = (typeof HOSTING_STATUSES)[number];

/** The host is served (its custom domain name exists with an issued certificate) in these states. */
export const SERVING_STATUSES: readonly HostingStatus[] = ['pending_dns', 'active'];

/** The API a host's custom domain name is mapped to. */
export type HostedApi = 'mta-sts' | 'links';

export const hostRecordSchema = z.object({ name: z.string(), value: z.string() });

/** The fields of a hosted host's provisioning, shared by every kind (each adds its own, and its `dns` findings). */
export const hostHostingFields = {
  domain_id: z.string(),
  /** The owning account (read by operators; a request's access goes by the domain, read first). */
  account_id: z.string(),
  status: z.enum(HOSTING_STATUSES),
  message: z.string().nullable().default(null),
  /** Starts over (a new certificate request) at each PUT after a failure: part of ACM's idempotency token. */
  attempt: z.number(),
  certificate_arn: z.string().nullable().default(null),
  /** A failed attempt's certificate, deleted by the next step (it is used by nothing). */
  stale_certificate_arn: z.string().nullable().default(null),
  validation_record: hostRecordSchema.nullable().default(null),
  /** The custom domain name's target (`d-....execute-api.<region>.amazonaws.com`): the host's CNAME value. */
  target: z.string().nullable().default(null),
  /** When the current attempt began (ACM gives up validating after 72 hours). */
  attempt_started_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Every write is conditional on it. */
  version: z.number(),
};
const hostHostingSchema = z.object(hostHostingFields);
export type HostHosting = z.output<typeof hostHostingSchema>;

/** A record the owner publishes for a hosted host, with what the last check found. */
export interface HostingRecord<Purpose extends string = string> {
  purpose: Purpose;
  type: 'CNAME' | 'TXT';
  name: string;
  value: string;
  /** Needed for the host to be used. */
  required: boolean;
  /** verified: found as given; pending: not found (yet), or not checked yet. */
  status: 'verified' | 'pending';
  found?: string[];
}

export const sameHostName = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** Whether the host's CNAME names the custom domain name's target. */
export function hostCnameFound(hosting: Pick<HostHosting, 'target'>, found: string[]): boolean {
  return hosting.target !== null && found.some((value) => sameHostName(value, hosting.target!));
}

/**
 * The certificate's validation record (once ACM made it) and the host's CNAME (once the custom domain name
 * exists, so its target is known), the first records every kind lists.
 */
export function hostRecords<Purpose extends string>(
  hosting: HostHosting,
  host: { name: string; purpose: Purpose; found: string[] | null },
): HostingRecord<'certificate_validation' | Purpose>[] {
  const records: HostingRecord<'certificate_validation' | Purpose>[] = [];
  if (hosting.validation_record) {
    records.push({
      purpose: 'certificate_validation',
      type: 'CNAME',
      name: hosting.validation_record.name,
      value: hosting.validation_record.value,
      required: true,
      // The host's custom domain name is created only once its certificate is issued.
      status: hosting.target !== null ? 'verified' : 'pending',
    });
  }
  if (hosting.target) {
    records.push({
      purpose: host.purpose,
      type: 'CNAME',
      name: host.name,
      value: hosting.target,
      required: true,
      status: host.found && hostCnameFound(hosting, host.found) ? 'verified' : 'pending',
      ...(host.found ? { found: host.found } : {}),
    });
  }
  return records;
}

/** A new attempt at the host's certificate (PUT after a failure): the step requests a new one and deletes the failed one. */
export function newAttempt(current: Pick<HostHosting, 'attempt' | 'certificate_arn'>, message: string, now: string) {
  return {
    status: 'pending_certificate' as const,
    message,
    attempt: current.attempt + 1,
    certificate_arn: null,
    stale_certificate_arn: current.certificate_arn,
    validation_record: null,
    target: null,
    dns: null,
    attempt_started_at: now,
  };
}

/** The host marked `removing` (DELETE, or its domain deleted): the task deletes its custom domain name, certificate and item. */
export function removingOf<T extends HostHosting>(hosting: T, message: string, now: string): T {
  return { ...hosting, status: 'removing', message, updated_at: now, version: hosting.version + 1 };
}

/** A new host's first attempt: its certificate to request (the domain-health task's next step). */
export function firstAttempt(domain: { id: string; account_id: string }, message: string, now: string) {
  return {
    ...newAttempt({ attempt: 0, certificate_arn: null }, message, now),
    domain_id: domain.id,
    account_id: domain.account_id,
    created_at: now,
    updated_at: now,
  };
}
