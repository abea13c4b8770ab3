/**
 * DNS apply through Cloudflare's API v4 with an API token (the DnsHost port). Every answer is the
 * envelope `{success, errors: [{code, message}], messages, result, result_info?}`; lists are paged
 * (`page`, `per_page`, `result_info.total_pages`).
 *
 *   GET  /zones?name=<name>                               the zone of a name (each candidate, longest first)
 *   GET  /zones/{zone}/dns_records?type=&name=&page=       the records of one (name, type)
 *   POST /zones/{zone}/dns_records                        a new record
 *   PUT  /zones/{zone}/dns_records/{id}                   a record overwritten (an SPF record merged)
 *   DELETE /zones/{zone}/dns_records/{id}                 a second SPF record merged into the first
 *
 * On Cloudflare each value is a record of its own, so a set is written as the difference from what was
 * read: values that stay are not touched, a value replaced (the SPF record) is overwritten in place.
 * Authentication failures: 401; 403 (an unknown token, or one without DNS:Edit on the zone: code 10000
 * "Authentication error"); 400 with 6003/6111/... (a malformed Authorization header).
 */
import { DnsHostError, type DnsHost } from '../../ports/dns-host';
import { hostOf, setKey, zoneCandidates, type DnsZone, type RecordSetOutcome, type RecordSetWrite } from '../../domain/domains/dns-apply';
import type { DnsRecordType } from '../../domain/domains/record-plan';
import { networkReason, redact } from '../providers/http';
import { quoteTxt, unquoteTxt } from './txt';

export const CLOUDFLARE_API_URL = 'https://api.cloudflare.com/client/v4';
export const CLOUDFLARE_TTL = 300;
const PER_PAGE = 100;
/** A malformed or unusable Authorization header: Cloudflare answers 400 with 6003 "Invalid request headers" (6111, 6103 in its error_chain), 9106, 9109. */
const badHeader = (code: unknown) => typeof code === 'number' && ((code >= 6000 && code < 7000) || code === 9106 || code === 9109);

interface CloudflareRecord {
  id: string;
  type: string;
  name: string;
  content: string;
  priority?: number;
}

interface Envelope {
  success?: boolean;
  errors?: { code?: number; message?: string }[];
  result?: unknown;
  result_info?: { page?: number; total_pages?: number };
}

export interface CloudflareDnsHostOptions {
  baseUrl?: string;
  timeoutMs?: number;
}

/** A request Cloudflare refused for this record (not the token, not an outage): reported on the record. */
class RecordRefused extends Error {}

export class CloudflareDnsHost implements DnsHost {
  readonly provider = 'cloudflare' as const;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  /** Records read, by (name, type): what write() turns into the difference. */
  private readonly seen = new Map<string, CloudflareRecord[]>();

  constructor(
    private readonly apiToken: string,
    options: CloudflareDnsHostOptions = {},
  ) {
    this.baseUrl = (options.baseUrl ?? CLOUDFLARE_API_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async findZone(name: string): Promise<{ zone: DnsZone | null; tried: string[] }> {
    const tried: string[] = [];
    for (const candidate of zoneCandidates(name)) {
      tried.push(candidate);
      const { result } = await this.request('GET', '/zones', { name: candidate, per_page: '50' });
      const zones = Array.isArray(result) ? (result as { id?: string; name?: string }[]) : [];
      const zone = zones.find((z) => typeof z.id === 'string' && hostOf(z.name ?? '') === candidate);
      if (zone) return { zone: { id: zone.id!, name: candidate }, tried };
    }
    return { zone: null, tried };
  }

  async read(zone: DnsZone, name: string, type: DnsRecordType): Promise<string[]> {
    const wanted = hostOf(name);
    const records: CloudflareRecord[] = [];
    for (let page = 1; ; page++) {
      const envelope = await this.request('GET', `/zones/${encodeURIComponent(zone.id)}/dns_records`, {
        type,
        name: wanted,
        page: String(page),
        per_page: String(PER_PAGE),
      });
      const list = Array.isArray(envelope.result) ? (envelope.result as CloudflareRecord[]) : [];
      records.push(...list.filter((record) => record.type === type && hostOf(record.name) === wanted));
      const total = envelope.result_info?.total_pages ?? 1;
      if (page >= total || list.length === 0) break;
    }
    this.seen.set(setKey(wanted, type), records);
    return records.map((record) => recordValue(type, record));
  }

  async write(zone: DnsZone, sets: RecordSetWrite[]): Promise<RecordSetOutcome[]> {
    const outcomes: RecordSetOutcome[] = [];
    for (const set of sets) {
      try {
        await this.writeSet(zone, set);
        outcomes.push({ ok: true });
      } catch (error) {
        if (!(error instanceof RecordRefused)) throw error;
        outcomes.push({ ok: false, message: error.message });
      }
    }
    return outcomes;
  }

  private async writeSet(zone: DnsZone, set: RecordSetWrite): Promise<void> {
    const name = hostOf(set.name);
    const key = setKey(name, set.type);
    if (!this.seen.has(key)) await this.read(zone, name, set.type);
    const existing = [...(this.seen.get(key) ?? [])];
    // The difference, value by value: what stays is not touched.
    const toAdd = [...set.values];
    const toRemove: CloudflareRecord[] = [];
    for (const record of existing) {
      const at = toAdd.indexOf(recordValue(set.type, record));
      if (at >= 0) toAdd.splice(at, 1);
      else toRemove.push(record);
    }
    const base = `/zones/${encodeURIComponent(zone.id)}/dns_records`;
    for (let i = 0; i < toAdd.length; i++) {
      const body = recordBody(set.type, name, toAdd[i]!);
      const replaced = toRemove.shift();
      if (replaced) await this.request('PUT', `${base}/${encodeURIComponent(replaced.id)}`, {}, body, true);
      else await this.request('POST', base, {}, body, true);
    }
    for (const extra of toRemove) await this.request('DELETE', `${base}/${encodeURIComponent(extra.id)}`, {}, undefined, true);
    this.seen.delete(key);
  }

  private async request(method: string, path: string, query: Record<string, string>, body?: unknown, write = false): Promise<Envelope> {
    const params = new URLSearchParams(query).toString();
    const url = `${this.baseUrl}${path}${params ? `?${params}` : ''}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.apiToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      throw new DnsHostError({
        kind: 'unavailable',
        message: `Cloudflare could not be reached (${method} ${path}): ${this.scrub(networkReason(error, this.timeoutMs))}`,
      });
    }
    let envelope: Envelope | undefined;
    try {
      envelope = text.trim() === '' ? {} : (JSON.parse(text) as Envelope);
    } catch {
      envelope = undefined;
    }
    const status = response.status;
    const errors = envelope?.errors ?? [];
    const said = this.scrub(errors.map((e) => `${e.code ?? '?'}: ${e.message ?? ''}`).join('; ') || text.slice(0, 200));
    if (status === 401 || status === 403 || (status === 400 && errors.some((e) => badHeader(e.code)))) {
      throw new DnsHostError({
        kind: 'auth',
        message: `Cloudflare refused the API token (${status} on ${method} ${path}: ${said}). It needs Zone:Read and DNS:Edit on the domain's zone.`,
      });
    }
    if (status === 429 || status >= 500)
      throw new DnsHostError({ kind: 'unavailable', message: `Cloudflare is unavailable (${status} on ${method} ${path}: ${said}).` });
    if (envelope === undefined)
      throw new DnsHostError({
        kind: 'unavailable',
        message: `Cloudflare answered ${method} ${path} with a body that is not JSON (${status}).`,
      });
    if (status >= 200 && status < 300 && envelope.success !== false) return envelope;
    if (write) throw new RecordRefused(`Cloudflare refused the record (${status}: ${said}).`);
    throw new DnsHostError({ kind: 'unavailable', message: `Cloudflare refused ${method} ${path} (${status}: ${said}).` });
  }

  private scrub(text: string): string {
    return redact(text, [this.apiToken]);
  }
}

function recordValue(type: DnsRecordType, record: CloudflareRecord): string {
  if (type === 'TXT') return unquoteTxt(record.content);
  if (type === 'CNAME') return hostOf(record.content);
  return `${record.priority ?? 0} ${hostOf(record.content)}`;
}

function recordBody(type: DnsRecordType, name: string, value: string): Record<string, unknown> {
  const common = { type, name, ttl: CLOUDFLARE_TTL, comment: 'Sending domain record (DNS apply)' };
  if (type === 'TXT') return { ...common, content: quoteTxt(value) };
  // A proxied CNAME would answer Cloudflare's addresses instead of the CNAME the mail provider checks.
  if (type === 'CNAME') return { ...common, content: value, proxied: false };
  const [priority, host] = value.split(/\s+/);
  return { ...common, content: host, priority: Number(priority) };
}
