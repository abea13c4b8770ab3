/**
 * Create DNS Record (POST /zones/{zone}/dns_records {type, name, content, ttl?, priority?, proxied?};
 * https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/create/): a value added
 * to its set in the DNS emulator. An identical record is 400 code 81058; a second CNAME at a name 81054,
 * and a CNAME next to other records (either way round) 81053, as Cloudflare refuses them.
 */
import { setAt } from '../../dns/hosted';
import { ok, type CloudflareReply } from '../envelope';
import { CloudflareFault } from '../errors';
import { recordValueOf } from '../record-body';
import { recordView, writeThrough } from '../records';
import type { CloudflareState } from '../state';
import type { CloudflareZone } from '../types';

export function createDnsRecord(state: CloudflareState, zone: CloudflareZone, body: Record<string, unknown>): CloudflareReply {
  const { name, type, value, ttl } = recordValueOf(state, zone, body);
  const existing = setAt(state.dns, name, type);
  if (existing?.values.includes(value)) throw new CloudflareFault(400, 81058, 'An identical record already exists.');
  if (type === 'CNAME' && existing) throw new CloudflareFault(400, 81054, 'A CNAME record with that host already exists.');
  writeThrough(() => state.dns.setRecords({ name, type, values: [...(existing?.values ?? []), value], ttl }));
  return ok(recordView(zone, setAt(state.dns, name, type)!, value));
}
