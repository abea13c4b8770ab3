/**
 * GET /_local/dns/queries?name=: the questions the emulator was asked (the last 10,000, oldest first), or
 * those for `name` and the names below it (tests sharing one cloud): `{"queries": [...]}` (../query-log.ts).
 */
import type { DnsState } from '../state';
import type { ControlReply, ControlRequest } from '../types';

export function listQueries(state: DnsState, request: ControlRequest): ControlReply {
  return { status: 200, body: { queries: state.queryLog.queries(request.query.get('name') ?? undefined) } };
}
