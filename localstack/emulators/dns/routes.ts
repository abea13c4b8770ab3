/**
 * The table of the DNS emulator's control API, the HTTP API through which record sets are published and
 * removed and the questions asked are listed (the local cloud serves it on its API port,
 * docs/local-cloud/dns.md). Method and path to the operation (a module of its own each, ./operations/):
 *
 *   GET    /_local/dns/records?name=           ListRecords: every set, or those at a name and below
 *   PUT    /_local/dns/records                 PutRecordSet {name, type, values, ttl?}
 *   DELETE /_local/dns/records?name=&type=     DeleteRecords (every type at the name, or one)
 *   GET    /_local/dns/queries?name=           ListQueries
 *
 * An operation that throws (an invalid name, type or set, a write that failed) is 400 validation_error
 * (./errors.ts). A method and path not in the table are not the control API's: the answer is undefined, and
 * the local cloud's HTTP server routes the request on (to the functions), so no path of the API is answered
 * otherwise than before.
 */
import { controlError } from './errors';
import * as op from './operations';
import type { DnsState } from './state';
import type { ControlReply, ControlRequest } from './types';

interface Route {
  method: string;
  path: string;
  operation(state: DnsState, request: ControlRequest): ControlReply | Promise<ControlReply>;
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/_local/dns/records', operation: op.listRecords },
  { method: 'PUT', path: '/_local/dns/records', operation: op.putRecordSet },
  { method: 'DELETE', path: '/_local/dns/records', operation: op.deleteRecords },
  { method: 'GET', path: '/_local/dns/queries', operation: op.listQueries },
];

/** The answer of the operation `method` and `pathname` name; undefined when they name none. */
export async function answerControlRequest(
  state: DnsState,
  method: string,
  pathname: string,
  request: ControlRequest,
): Promise<ControlReply | undefined> {
  const route = ROUTES.find((candidate) => candidate.method === method && candidate.path === pathname);
  if (!route) return undefined;
  try {
    return await route.operation(state, request);
  } catch (error) {
    return controlError(error);
  }
}
