/**
 * List DNS Records (GET /zones/{zone}/dns_records;
 * https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/list/): the zone's
 * records, filtered by `type` and by `name` (or `name.exact`), 100 a page by default.
 */
import { paged, type CloudflareReply } from '../envelope';
import { zoneRecords } from '../records';
import type { CloudflareState } from '../state';
import type { CloudflareZone } from '../types';

export function listDnsRecords(state: CloudflareState, zone: CloudflareZone, query: URLSearchParams): CloudflareReply {
  const type = query.get('type')?.toUpperCase();
  const name = (query.get('name') ?? query.get('name.exact'))?.toLowerCase().replace(/\.$/, '');
  const list = zoneRecords(state, zone).filter((record) => (!type || record.type === type) && (!name || record.name === name));
  return paged(list, query, 100);
}
