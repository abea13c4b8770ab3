/**
 * Delete DNS Record (DELETE /zones/{zone}/dns_records/{id};
 * https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/delete/): the value
 * taken out of its set in the DNS emulator; answers the record's id.
 */
import { ok, type CloudflareReply } from '../envelope';
import { removeValue, writeThrough, type FoundRecord } from '../records';
import type { CloudflareState } from '../state';

export function deleteDnsRecord(state: CloudflareState, id: string, { set, value }: FoundRecord): CloudflareReply {
  writeThrough(() => removeValue(state, set, value));
  return ok({ id });
}
