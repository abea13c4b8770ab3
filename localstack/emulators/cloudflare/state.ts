/**
 * What the fake Cloudflare API's calls work on, handed to each explicitly: its zones (memory, or
 * `<dataDir>/zones.json`) and the DNS emulator's record sets, which the zones' records are views over
 * (../dns/hosted.ts), so what is written here is at once what the local resolvers answer.
 */
import * as path from 'node:path';
import { JsonState, type DnsRecordsBackend } from '../dns/hosted';
import type { CloudflareZone } from './types';

export interface CloudflareState {
  readonly dns: DnsRecordsBackend;
  readonly zones: CloudflareZone[];
  /** Writes the zones to zones.json (nothing when memory only). */
  saveZones(): void;
  log(msg: string): void;
}

/** The state of a starting fake: the zones of `<dataDir>/zones.json` when there is one. */
export function openCloudflareState(options: { dns: DnsRecordsBackend; dataDir?: string; log: (msg: string) => void }): CloudflareState {
  const file = new JsonState<{ version: 1; zones: CloudflareZone[] }>(
    options.dataDir ? path.join(options.dataDir, 'zones.json') : undefined,
    { version: 1, zones: [] },
  );
  const zones: CloudflareZone[] = [...file.load().zones];
  return { dns: options.dns, zones, saveZones: () => file.save({ version: 1, zones }), log: options.log };
}
