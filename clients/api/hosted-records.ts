/**
 * The records a host the service serves for a domain lists for its owner to publish (a hosted MTA-STS policy's,
 * ./mta-sts.ts; a link domain's, ./link-domain.ts), as both clients show them. The type comes from the API's own
 * records (a type-only import: nothing of shared/ runs in the clients).
 */
import type { HostingRecord } from '#shared/domain/domains/hosting/host-hosting';

export type HostedRecord = HostingRecord;

/** A record to publish, "TYPE name value". */
export function hostedRecordLine(record: HostedRecord): string {
  return `${record.type} ${record.name} ${record.value}`;
}
