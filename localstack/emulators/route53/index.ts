/**
 * The Route 53 emulator: Route 53's REST-XML API (2013-04-01) for the operations DNS apply uses, plus
 * CreateHostedZone so tests and local users can make zones with the real SDK or CLI (the routes:
 * ./routes.ts, which names the module of each action). Hosted zones are its own (memory, or
 * `<dataDir>/zones.json`); their records are a view over the DNS emulator's record sets (../dns/hosted.ts),
 * so a change written here is at once what the local resolvers answer.
 *
 * Requests must carry a SigV4 Authorization header; its access key id must be one of `accessKeys`
 * when given (else 403 InvalidClientTokenId, as Route 53 answers an unknown key). Signatures are not
 * checked. Record types: A, AAAA, CNAME, MX, TXT (the DNS emulator's). Errors are Route 53's
 * `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>`.
 */
import type { DnsRecordsBackend } from '../dns/hosted';
import { serveHttp } from '../http-server';
import { route53Handler } from './handler';
import { openRoute53State } from './state';
import type { HostedZone } from './types';
import { addZone } from './zones';

export type { HostedZone } from './types';

/** An access key the local cloud's emulator accepts besides its own ('local'): one-time credentials in tests and local tries. */
export const ROUTE53_LOCAL_ACCESS_KEY_ID = 'AKIALOCALROUTE53TEST';

export interface Route53EmulatorOptions {
  port?: number;
  host?: string;
  /** Where the records live: the DNS emulator. */
  dns: DnsRecordsBackend;
  /** Absolute path for zones.json; undefined = memory only. */
  dataDir?: string;
  /** Accepted access key ids; undefined = any. */
  accessKeys?: readonly string[];
  /** How long a change stays PENDING before GetChange answers INSYNC; default 0. */
  syncDelayMs?: number;
  log?: (msg: string) => void;
}

export interface Route53Emulator {
  /** Endpoint for the SDK (AWS_ENDPOINT_URL_ROUTE_53). */
  url: string;
  /** A public hosted zone for `name` (a new one each call, as Route 53 allows). */
  createZone(name: string): HostedZone;
  zones(): HostedZone[];
  stop(): Promise<void>;
}

export async function startRoute53Emulator(options: Route53EmulatorOptions): Promise<Route53Emulator> {
  const log = options.log ?? (() => undefined);
  const state = openRoute53State({ dns: options.dns, dataDir: options.dataDir, syncDelayMs: options.syncDelayMs, log });
  const { url, stop } = await serveHttp(options, route53Handler(state, options.accessKeys));
  log(`route53: listening on ${url}${options.dataDir ? `, zones in ${options.dataDir}` : ', in memory'}`);
  return {
    url,
    createZone: (name) => addZone(state, name),
    zones: () => state.zones.map((zone) => ({ ...zone })),
    stop,
  };
}
