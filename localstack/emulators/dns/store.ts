/**
 * The record sets, in memory and (with a data directory) in `<dataDir>/records.json`.
 *
 * A change is written to disk before it is applied in memory, synchronously and atomically (temp file
 * + rename): when setRecords/deleteRecords return, the change is durable, and if the write fails the
 * call throws and nothing changed. The file is small (a few record sets per domain), so a full
 * rewrite per change costs little.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DnsRecordError } from './errors';
import { isAtOrBelow, parentOf, zoneOf } from './names';
import { RECORD_TYPES, type DnsRecordSet, type DnsRecordType } from './types';
import { validateRecordSet, type ValidSet } from './validate';

interface RecordsFile {
  version: 1;
  records: DnsRecordSet[];
}

type Node = Map<DnsRecordType, ValidSet>;

export class RecordStore {
  private readonly nodes = new Map<string, Node>();
  /** For every name that has records, and each of its ancestors: how many names with records are at or below it. */
  private readonly below = new Map<string, number>();
  /** Zone apex -> how many names with records it holds. */
  private readonly zones = new Map<string, number>();
  private readonly file: string | undefined;
  private tmpCounter = 0;
  /** SOA serial: epoch seconds of the last change, strictly increasing. */
  serial = Math.floor(Date.now() / 1000);

  constructor(dataDir: string | undefined) {
    this.file = dataDir === undefined ? undefined : path.join(dataDir, 'records.json');
  }

  /** Reads records.json if there is one. An unreadable or invalid file throws (start fails rather than lose records). */
  load(): void {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const parsed = JSON.parse(text) as RecordsFile;
    if (parsed.version !== 1 || !Array.isArray(parsed.records)) throw new Error(`${this.file}: not a version 1 records file`);
    for (const raw of parsed.records) {
      try {
        const valid = validateRecordSet(raw);
        this.checkCnameExclusive(valid);
        this.apply(valid.set.name, valid.set.type, valid);
      } catch (err) {
        throw new Error(`${this.file}: invalid record set ${JSON.stringify(raw)}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Validates and stores a record set, replacing any set of the same name and type. */
  set(input: unknown): DnsRecordSet {
    const valid = validateRecordSet(input);
    this.checkCnameExclusive(valid);
    const { name, type } = valid.set;
    this.persist([...this.all().filter((s) => !(s.name === name && s.type === type)), valid.set]);
    this.apply(name, type, valid);
    this.bumpSerial();
    return { ...valid.set, values: [...valid.set.values] };
  }

  /** Removes the sets at `name` (all types, or one): returns how many sets were removed. */
  delete(name: string, type?: DnsRecordType): number {
    const node = this.nodes.get(name);
    if (!node) return 0;
    const types = type === undefined ? [...node.keys()] : node.has(type) ? [type] : [];
    if (types.length === 0) return 0;
    this.persist(this.all().filter((s) => !(s.name === name && types.includes(s.type))));
    for (const t of types) this.apply(name, t, undefined);
    this.bumpSerial();
    return types.length;
  }

  get(name: string): Node | undefined {
    return this.nodes.get(name);
  }

  /** All sets, sorted by name then type; with `under`, only that name and the names below it. */
  all(under?: string): DnsRecordSet[] {
    const out: DnsRecordSet[] = [];
    for (const name of [...this.nodes.keys()].sort()) {
      if (under !== undefined && !isAtOrBelow(name, under)) continue;
      const node = this.nodes.get(name);
      for (const type of RECORD_TYPES) {
        const set = node?.get(type)?.set;
        if (set) out.push({ ...set, values: [...set.values] });
      }
    }
    return out;
  }

  /** The local zone `name` falls in (the longest zone apex at or above it), if any. */
  zoneFor(name: string): string | undefined {
    for (let n = name; ; n = parentOf(n)) {
      if (this.zones.has(n)) return n;
      if (n === '') return undefined;
    }
  }

  /** True when the name has records or has names with records below it (an empty non-terminal). */
  exists(name: string): boolean {
    return this.below.has(name);
  }

  private checkCnameExclusive(valid: ValidSet): void {
    const { name, type } = valid.set;
    const others = [...(this.nodes.get(name)?.keys() ?? [])].filter((t) => t !== type);
    if (others.length === 0) return;
    if (type === 'CNAME') {
      throw new DnsRecordError(
        `cannot add a CNAME at ${name}: it already has ${others.join(', ')} records, and a CNAME must be the only record at its name`,
      );
    }
    if (others.includes('CNAME')) {
      throw new DnsRecordError(`cannot add ${type} records at ${name}: it has a CNAME, which must be the only record at its name`);
    }
  }

  private apply(name: string, type: DnsRecordType, valid: ValidSet | undefined): void {
    let node = this.nodes.get(name);
    const wasPresent = node !== undefined;
    if (valid) {
      if (!node) {
        node = new Map();
        this.nodes.set(name, node);
      }
      node.set(type, valid);
    } else if (node) {
      node.delete(type);
      if (node.size === 0) {
        this.nodes.delete(name);
        node = undefined;
      }
    }
    const isPresent = node !== undefined;
    if (wasPresent === isPresent) return;
    const delta = isPresent ? 1 : -1;
    for (let n = name; n !== ''; n = parentOf(n)) bump(this.below, n, delta);
    bump(this.zones, zoneOf(name), delta);
  }

  private bumpSerial(): void {
    this.serial = Math.max(this.serial + 1, Math.floor(Date.now() / 1000)) >>> 0;
  }

  private persist(records: DnsRecordSet[]): void {
    if (!this.file) return;
    records.sort((a, b) => (a.name === b.name ? a.type.localeCompare(b.type) : a.name < b.name ? -1 : 1));
    const body: RecordsFile = { version: 1, records };
    const tmp = `${this.file}.tmp-${process.pid}-${++this.tmpCounter}`;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`);
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw new Error(`could not write ${this.file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function bump(map: Map<string, number>, key: string, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
