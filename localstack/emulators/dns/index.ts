/**
 * Local authoritative DNS server for the embedded local cloud (the "DNS emulator").
 *
 * Users publish record sets (A, AAAA, TXT, CNAME, MX) through the control API (in process, or over HTTP:
 * ./routes.ts, ./operations/, the state in ./state.ts, the error shapes in ./errors.ts); the
 * server answers them over UDP and TCP on one loopback port, in RFC 1035 wire format, so the
 * product's domain verification (Node's dns.promises.Resolver with setServers([emulator.address]))
 * runs unmodified. Names outside the local zones are forwarded to `upstream` resolvers when given.
 * Record sets persist in `<dataDir>/records.json` (or memory only). See docs/local-cloud/dns.md.
 *
 *   const dns = await startDnsEmulator({ dataDir });
 *   dns.setRecords({ name: '_service.example.com', type: 'TXT', values: ['token'] });
 *   resolver.setServers([dns.address]);
 */
import * as path from 'node:path';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, Forwarder } from './forward';
import type { LoggedQuery } from './query-log';
import { Responder, type UnknownNamePolicy } from './responder';
import { answerControlRequest } from './routes';
import { listen } from './server';
import { openDnsState, recordsAt, removeRecords } from './state';
import type { ControlReply, ControlRequest, DnsRecordSet, DnsRecordType } from './types';
import { formatAddress } from './upstream';

export { DnsRecordError } from './errors';
export { zoneOf } from './names';
export type { UnknownNamePolicy } from './responder';
export type { LoggedQuery } from './query-log';
export { DEFAULT_TTL, type DnsRecordSet, type DnsRecordType } from './types';

export interface DnsEmulatorOptions {
  /** Default 0 = ephemeral (the same number is used for UDP and TCP). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Absolute path; undefined = memory only. */
  dataDir?: string;
  /** Resolvers (`host:port`, host an IP address) that names outside the local zones are forwarded to, in order. */
  upstream?: string[];
  /** How long to wait for each upstream; default 2000 ms. */
  upstreamTimeoutMs?: number;
  /** Answer for names outside the local zones when there is no upstream: default 'nxdomain'. */
  unknownNames?: UnknownNamePolicy;
  /** Default silent. Gets one line per query and any errors. */
  log?: (msg: string) => void;
}

export interface DnsEmulator {
  /** Same port for UDP and TCP. */
  port: number;
  /** 'host:port', what goes in DNS_RESOLVERS / resolver.setServers(). */
  address: string;
  /** Replaces the record set (name, type); returns it in canonical form. Throws DnsRecordError when invalid. */
  setRecords(set: DnsRecordSet): DnsRecordSet;
  /** Removes the record sets at `name` (every type, or just `type`); returns how many sets were removed. */
  deleteRecords(name: string, type?: DnsRecordType): number;
  /** Every record set, or those at `name` and below it; sorted by name, then type. */
  listRecords(name?: string): DnsRecordSet[];
  /** The questions asked (the last 10,000), or those for `name` and below it; oldest first. */
  queries(name?: string): LoggedQuery[];
  /**
   * The control API's answer to an HTTP request (its table: ./routes.ts), or undefined when the method and
   * path are not the API's; the local cloud serves it on its API port (`/_local/dns/...`).
   */
  answerControl(method: string, pathname: string, request: ControlRequest): Promise<ControlReply | undefined>;
  /** Closes both listeners and ends forwarded queries. Idempotent. */
  stop(): Promise<void>;
}

export async function startDnsEmulator(opts: DnsEmulatorOptions = {}): Promise<DnsEmulator> {
  const log = opts.log ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  if (opts.dataDir !== undefined && !path.isAbsolute(opts.dataDir)) {
    throw new Error(`DNS emulator dataDir must be an absolute path, got '${opts.dataDir}'`);
  }
  const state = openDnsState(opts.dataDir);
  const { store, queryLog } = state;
  const forwarder = new Forwarder(opts.upstream ?? [], opts.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS, log);
  const responder = new Responder({ store, forwarder, unknownNames: opts.unknownNames ?? 'nxdomain', log, queryLog });
  const listeners = await listen(host, opts.port ?? 0, responder, log);
  // Listening on every interface: clients still reach it on loopback.
  const address = formatAddress(host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host, listeners.port);
  log(
    `dns: listening on ${address} (UDP and TCP)${opts.dataDir ? `, records in ${opts.dataDir}` : ', in memory'}` +
      `${forwarder.enabled ? `, forwarding to ${(opts.upstream ?? []).join(', ')}` : ''}`,
  );

  let stopping: Promise<void> | undefined;
  return {
    port: listeners.port,
    address,
    setRecords: (set) => store.set(set),
    deleteRecords: (name, type) => removeRecords(state, name, type),
    listRecords: (name) => recordsAt(state, name),
    queries: (name) => queryLog.queries(name),
    answerControl: (method, pathname, request) => answerControlRequest(state, method, pathname, request),
    stop: () =>
      (stopping ??= (async () => {
        forwarder.close();
        await listeners.close();
      })()),
  };
}
