/**
 * DNS Record Details (GET /zones/{zone}/dns_records/{id};
 * https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/get/).
 */
import { ok, type CloudflareReply } from '../envelope';
import { recordView, type FoundRecord } from '../records';
import type { CloudflareZone } from '../types';

export function getDnsRecord(zone: CloudflareZone, { set, value }: FoundRecord): CloudflareReply {
  return ok(recordView(zone, set, value));
}
