/**
 * What the DNS emulator works on, built at start: the record sets (./store.ts: in memory, and with a data
 * directory in `<dataDir>/records.json`, each change durable when it returns) and the questions it was asked
 * (./query-log.ts: memory only, the last 10,000). The wire-protocol server answers from both
 * (./responder.ts); the control API's operations (./routes.ts, ./operations/) read and change them.
 */
import { parseName } from './names';
import { QueryLog } from './query-log';
import { RecordStore } from './store';
import type { DnsRecordSet } from './types';
import { parseRecordType } from './validate';

export interface DnsState {
  readonly store: RecordStore;
  readonly queryLog: QueryLog;
}

/** The state of a starting emulator: the record sets of `<dataDir>/records.json` when there is one (an invalid file throws). */
export function openDnsState(dataDir: string | undefined): DnsState {
  const store = new RecordStore(dataDir);
  store.load();
  return { store, queryLog: new QueryLog() };
}

/** Every record set, or those at `name` and below it; sorted by name, then type. A bad name is a DnsRecordError. */
export function recordsAt(state: DnsState, name?: string): DnsRecordSet[] {
  return state.store.all(name === undefined ? undefined : parseName(name));
}

/** Removes the record sets at `name` (every type, or just `type`); returns how many sets were removed. */
export function removeRecords(state: DnsState, name: string, type?: string): number {
  return state.store.delete(parseName(name), type === undefined ? undefined : parseRecordType(type));
}
