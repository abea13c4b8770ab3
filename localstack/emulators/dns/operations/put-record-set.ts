/**
 * PUT /_local/dns/records {name, type, values, ttl?}: replaces the record set of that name and type, durable
 * when it answers; `{"record": ...}` in canonical form. An invalid set is 400 (../validate.ts, ../store.ts:
 * a CNAME alone at its name).
 */
import type { DnsState } from '../state';
import type { ControlReply, ControlRequest } from '../types';

export async function putRecordSet(state: DnsState, request: ControlRequest): Promise<ControlReply> {
  return { status: 200, body: { record: state.store.set(await request.json()) } };
}
