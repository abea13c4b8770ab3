/**
 * Port: the DNS host of a domain's zone, which DNS apply writes the domain's records through (Amazon Route 53 or
 * Cloudflare: shared/adapters/dns-hosts/), and why talking to it stopped (DnsHostError). What it reads and writes,
 * and the planning: shared/domain/domains/dns-apply.ts.
 */
import type { DnsHostName, DnsZone, RecordSetOutcome, RecordSetWrite } from '../domain/domains/dns-apply';
import type { DnsRecordType } from '../domain/domains/record-plan';

/** Why talking to the DNS host stopped. */
export type DnsHostFailure =
  /** The credentials were refused (unknown token or key, bad signature, expired). */
  | { kind: 'auth'; message: string }
  /** The credentials are valid but may not do this (missing permission on the zone). */
  | { kind: 'not_permitted'; message: string }
  /** Network error, timeout, 5xx, throttling that outlived the retries, an unreadable answer. */
  | { kind: 'unavailable'; message: string };

export class DnsHostError extends Error {
  constructor(readonly failure: DnsHostFailure) {
    super(failure.message);
    this.name = 'DnsHostError';
  }
}

/** The port. Messages never contain the credentials. */
export interface DnsHost {
  readonly provider: DnsHostName;
  /** The zone of `name` to write in: the longest zone name that is `name` or one of its parents; null when the host has none. `tried` lists the names looked up. */
  findZone(name: string): Promise<{ zone: DnsZone | null; tried: string[] }>;
  /** The values of `type` at `name` (empty when none); normalised as in RecordSetWrite. */
  read(zone: DnsZone, name: string, type: DnsRecordType): Promise<string[]>;
  /** Writes the sets; one outcome per set, in order. Throws DnsHostError for auth or outage before anything is known. */
  write(zone: DnsZone, sets: RecordSetWrite[]): Promise<RecordSetOutcome[]>;
  /** After writes: waits (a bounded time) until the host serves them; false when it did not say so in time. */
  settle?(): Promise<boolean>;
  /** Releases what the adapter holds for this request (an SDK client made for one-time credentials). */
  close?(): void;
}
