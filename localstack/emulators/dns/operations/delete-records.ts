/**
 * DELETE /_local/dns/records?name=&type=: removes the record sets at `name` (every type, or just `type`);
 * `{"deleted": <how many sets>}`. `name` is required (400).
 */
import { validationError } from '../errors';
import { removeRecords, type DnsState } from '../state';
import type { ControlReply, ControlRequest } from '../types';

export function deleteRecords(state: DnsState, request: ControlRequest): ControlReply {
  const name = request.query.get('name');
  if (!name) return validationError('name is required');
  return { status: 200, body: { deleted: removeRecords(state, name, request.query.get('type') ?? undefined) } };
}
