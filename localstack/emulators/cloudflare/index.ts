/**
 * A fake Cloudflare API (v4, under /client/v4) for DNS apply (the routes: ./routes.ts, which names the
 * module of each call): zones are its own (memory, or `<dataDir>/zones.json`); DNS records are a view
 * over the DNS emulator's record sets (../dns/hosted.ts), each value of a set being one record whose id
 * is derived from (name, type, value). What is written here is at once what the local resolvers answer.
 *
 * Every answer is Cloudflare's envelope `{success, errors: [{code, message}], messages, result,
 * result_info?}`. Authentication is `Authorization: Bearer <token>` with one of `tokens`: a missing or
 * malformed header is 400 code 6003 (error_chain 6111), an unknown token 403 code 10000 "Authentication
 * error". Record types: A, AAAA, CNAME, MX, TXT. TXT content may be quoted strings or plain text; it is
 * answered quoted, as Cloudflare does.
 */
import type { DnsRecordsBackend } from '../dns/hosted';
import { serveHttp } from '../http-server';
import { CLOUDFLARE_LOCAL_TOKEN } from './constants';
import { cloudflareHandler } from './handler';
import { openCloudflareState } from './state';
import type { CloudflareZone } from './types';
import { addZone } from './zones';

export { CLOUDFLARE_LOCAL_ACCOUNT, CLOUDFLARE_LOCAL_TOKEN } from './constants';
export type { CloudflareZone } from './types';

export interface CloudflareEmulatorOptions {
  port?: number;
  host?: string;
  dns: DnsRecordsBackend;
  /** Accepted API tokens; default [CLOUDFLARE_LOCAL_TOKEN]. */
  tokens?: readonly string[];
  dataDir?: string;
  log?: (msg: string) => void;
}

export interface CloudflareEmulator {
  /** Origin of the server. */
  url: string;
  /** The API base, ready for CLOUDFLARE_API_URL: `${url}/client/v4`. */
  apiUrl: string;
  createZone(name: string): CloudflareZone;
  zones(): CloudflareZone[];
  stop(): Promise<void>;
}

export async function startCloudflareEmulator(options: CloudflareEmulatorOptions): Promise<CloudflareEmulator> {
  const log = options.log ?? (() => undefined);
  const state = openCloudflareState({ dns: options.dns, dataDir: options.dataDir, log });
  const { url, stop } = await serveHttp(options, cloudflareHandler(state, options.tokens ?? [CLOUDFLARE_LOCAL_TOKEN]));
  log(`cloudflare: listening on ${url}/client/v4${options.dataDir ? `, zones in ${options.dataDir}` : ', in memory'}`);
  return {
    url,
    apiUrl: `${url}/client/v4`,
    createZone: (name) => addZone(state, name),
    zones: () => state.zones.map((zone) => ({ ...zone })),
    stop,
  };
}
