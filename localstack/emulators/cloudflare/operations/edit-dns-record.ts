/**
 * Update DNS Record (PATCH /zones/{zone}/dns_records/{id}, the fields given over the record's;
 * https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/edit/): the record
 * overwritten as PUT does (./update-dns-record.ts) with its own fields under the request's.
 */
import type { CloudflareReply } from '../envelope';
import { recordView, type FoundRecord } from '../records';
import type { CloudflareState } from '../state';
import type { CloudflareZone } from '../types';
import { overwriteDnsRecord } from './update-dns-record';

/** PATCH: the fields of `body` over the record's own (type, name, content, priority, ttl). */
export function editDnsRecord(
  state: CloudflareState,
  zone: CloudflareZone,
  record: FoundRecord,
  body: Record<string, unknown>,
): CloudflareReply {
  const { set, value } = record;
  const view = recordView(zone, set, value);
  return overwriteDnsRecord(state, zone, record, {
    type: set.type,
    name: set.name,
    content: view.content,
    priority: view.priority,
    ttl: set.ttl,
    ...body,
  });
}
