/**
 * GET /_local/dns/records?name=: every record set, or those at `name` and the names below it, sorted by
 * name, then type: `{"records": [...]}` (docs/local-cloud/dns.md).
 */
import { recordsAt, type DnsState } from '../state';
import type { ControlReply, ControlRequest } from '../types';

export function listRecords(state: DnsState, request: ControlRequest): ControlReply {
  return { status: 200, body: { records: recordsAt(state, request.query.get('name') ?? undefined) } };
}
