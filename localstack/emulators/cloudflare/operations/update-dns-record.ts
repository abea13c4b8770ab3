/**
 * Overwrite DNS Record (PUT /zones/{zone}/dns_records/{id}, the whole record;
 * https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/update/; PATCH is
 * ./edit-dns-record.ts). The record's value is replaced in its set, or moved to another set when its name or
 * type changes; its id changes with its value. The result being a record that already exists is 400 code 81058.
 */
import { setAt } from '../../dns/hosted';
import { ok, type CloudflareReply } from '../envelope';
import { CloudflareFault } from '../errors';
import { recordValueOf } from '../record-body';
import { recordView, removeValue, writeThrough, type FoundRecord } from '../records';
import type { CloudflareState } from '../state';
import type { CloudflareZone } from '../types';

/** PUT: the record becomes `body`. */
export function overwriteDnsRecord(
  state: CloudflareState,
  zone: CloudflareZone,
  record: FoundRecord,
  body: Record<string, unknown>,
): CloudflareReply {
  const { set, value } = record;
  const next = recordValueOf(state, zone, body);
  const sameSet = next.name === set.name && next.type === set.type;
  const target = sameSet ? set : setAt(state.dns, next.name, next.type);
  if (target?.values.includes(next.value) && !(sameSet && next.value === value))
    throw new CloudflareFault(400, 81058, 'An identical record already exists.');
  writeThrough(() => {
    if (sameSet)
      state.dns.setRecords({
        name: set.name,
        type: set.type,
        ttl: next.ttl,
        values: set.values.map((v) => (v === value ? next.value : v)),
      });
    else {
      state.dns.setRecords({ name: next.name, type: next.type, ttl: next.ttl, values: [...(target?.values ?? []), next.value] });
      removeValue(state, set, value);
    }
  });
  return ok(recordView(zone, setAt(state.dns, next.name, next.type)!, next.value));
}
