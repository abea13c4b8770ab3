/**
 * What the fake DNS hosts (the Route 53 emulator, the fake Cloudflare API) share: their zones are views
 * over the DNS emulator's record sets, so a record written through either API is what the service's
 * resolvers read back. A zone holds the sets at or below its name, except those inside a more specific
 * zone of the same host. Zones themselves are the fake host's own (kept in memory, or in a JSON file).
 *
 * TXT text is converted to and from presentation format here independently of the product's adapters
 * (shared/adapters/dns-hosts/txt.ts), so a quoting bug on one side shows up in tests.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isAtOrBelow } from './names';
import type { DnsRecordSet, DnsRecordType } from './types';

/** The part of the DNS emulator the fake hosts use (DnsEmulator satisfies it). */
export interface DnsRecordsBackend {
  setRecords(set: DnsRecordSet): DnsRecordSet;
  deleteRecords(name: string, type?: DnsRecordType): number;
  listRecords(name?: string): DnsRecordSet[];
}

/** The sets of zone `zone`: at or below it, not inside a deeper zone in `zones`. */
export function setsOfZone(dns: DnsRecordsBackend, zone: string, zones: readonly string[]): DnsRecordSet[] {
  const deeper = zones.filter((other) => other !== zone && isAtOrBelow(other, zone));
  return dns.listRecords(zone).filter((set) => !deeper.some((other) => isAtOrBelow(set.name, other)));
}

/** The set of `type` at exactly `name`; undefined when there is none. */
export function setAt(dns: DnsRecordsBackend, name: string, type: DnsRecordType): DnsRecordSet | undefined {
  return dns.listRecords(name).find((set) => set.name === name && set.type === type);
}

/** The most specific zone of `zones` that `name` is in; undefined when none. */
export function zoneOfName(name: string, zones: readonly string[]): string | undefined {
  return zones.filter((zone) => isAtOrBelow(name, zone)).sort((a, b) => b.length - a.length)[0];
}

/** Text -> `"…" "…"` (255-byte strings, `"` and `\` escaped). */
export function toQuoted(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const parts: string[] = [];
  for (let at = 0; at < bytes.length || parts.length === 0; ) {
    let end = Math.min(at + 255, bytes.length);
    // Never cut a UTF-8 sequence: back off continuation bytes.
    while (end < bytes.length && end > at && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(at, end).toString('utf8'));
    at = end;
    if (at >= bytes.length) break;
  }
  return parts.map((part) => `"${part.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(' ');
}

/**
 * `"…" "…"` -> text; null when the value is not one or more quoted strings (what Route 53 refuses:
 * "Value should be enclosed in quotation marks").
 */
export function fromQuoted(value: string): string | null {
  const strings = /^\s*(?:"(?:[^"\\]|\\.)*"\s*)+$/.test(value) ? value.match(/"(?:[^"\\]|\\.)*"/g) : null;
  if (!strings) return null;
  const bytes: number[] = [];
  for (const quoted of strings) {
    const inner = quoted.slice(1, -1);
    for (let i = 0; i < inner.length; i++) {
      if (inner[i] === '\\' && /^\d{3}$/.test(inner.slice(i + 1, i + 4))) {
        bytes.push(Number(inner.slice(i + 1, i + 4)) & 0xff);
        i += 3;
      } else if (inner[i] === '\\' && i + 1 < inner.length) {
        bytes.push(...Buffer.from(inner[i + 1]!, 'utf8'));
        i += 1;
      } else {
        const code = inner.codePointAt(i)!;
        const char = String.fromCodePoint(code);
        bytes.push(...Buffer.from(char, 'utf8'));
        i += char.length - 1;
      }
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A small JSON state file (zones), written atomically; undefined file = memory only. `mode` 0o600 for a file holding keys. */
export class JsonState<T> {
  constructor(
    private readonly file: string | undefined,
    private readonly empty: T,
    private readonly mode = 0o644,
  ) {}

  load(): T {
    if (!this.file) return this.empty;
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.empty;
      throw new Error(`${this.file}: ${(error as Error).message}`);
    }
  }

  save(state: T): void {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: this.mode });
      renameSync(tmp, this.file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  }
}
