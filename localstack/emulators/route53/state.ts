/**
 * What the Route 53 emulator's actions work on, handed to each explicitly: its hosted zones (memory, or
 * `<dataDir>/zones.json`), the changes it has answered (memory only), and the DNS emulator's record sets,
 * which the zones are views over (../dns/hosted.ts), so a change written here is at once what the local
 * resolvers answer.
 */
import * as path from 'node:path';
import { JsonState, type DnsRecordsBackend } from '../dns/hosted';
import type { Change, HostedZone } from './types';

export interface Route53State {
  readonly dns: DnsRecordsBackend;
  readonly zones: HostedZone[];
  readonly changes: Map<string, Change>;
  /** How long a change stays PENDING before GetChange answers INSYNC. */
  readonly syncDelayMs: number;
  /** Writes the zones to zones.json (nothing when memory only). */
  saveZones(): void;
  log(msg: string): void;
}

/** The state of a starting emulator: the zones of `<dataDir>/zones.json` when there is one, no changes. */
export function openRoute53State(options: {
  dns: DnsRecordsBackend;
  dataDir?: string;
  syncDelayMs?: number;
  log: (msg: string) => void;
}): Route53State {
  const file = new JsonState<{ version: 1; zones: HostedZone[] }>(options.dataDir ? path.join(options.dataDir, 'zones.json') : undefined, {
    version: 1,
    zones: [],
  });
  const zones: HostedZone[] = [...file.load().zones];
  return {
    dns: options.dns,
    zones,
    changes: new Map(),
    syncDelayMs: options.syncDelayMs ?? 0,
    saveZones: () => file.save({ version: 1, zones }),
    log: options.log,
  };
}
