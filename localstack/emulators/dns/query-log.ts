/**
 * The questions the emulator was asked, newest last, the last QUERY_LOG_SIZE of them (older ones are
 * dropped): for tests that must prove a lookup happened or did not (`queries(name)`: the questions for
 * `name` and the names below it). In memory only; answered or not, every decoded question counts.
 */
import { canonicalName } from './names';

export const QUERY_LOG_SIZE = 10_000;

export interface LoggedQuery {
  /** The name asked, canonical (lower case, no trailing dot). */
  name: string;
  /** `MX`, `A`, `TXT`, ... (or `TYPE<n>`). */
  type: string;
  transport: 'udp' | 'tcp';
  at: string;
}

export class QueryLog {
  private readonly entries: LoggedQuery[] = [];

  record(name: string, type: string, transport: 'udp' | 'tcp', at = new Date()): void {
    this.entries.push({ name: canonicalName(name), type, transport, at: at.toISOString() });
    if (this.entries.length > QUERY_LOG_SIZE) this.entries.splice(0, this.entries.length - QUERY_LOG_SIZE);
  }

  /** Every question kept, or those for `name` and the names below it. */
  queries(name?: string): LoggedQuery[] {
    if (name === undefined) return [...this.entries];
    const wanted = canonicalName(name);
    return this.entries.filter((entry) => entry.name === wanted || entry.name.endsWith(`.${wanted}`));
  }
}
