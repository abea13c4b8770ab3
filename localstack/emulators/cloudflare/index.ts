/**
 * A fake Cloudflare API (v4, under /client/v4) for DNS apply: zones are its own (memory, or
 * `<dataDir>/zones.json`); DNS records are a view over the DNS emulator's record sets (../dns/hosted.ts),
 * each value of a set being one record whose id is derived from (name, type, value). What is written here
 * is at once what the local resolvers answer.
 *
 *   GET    /client/v4/user/tokens/verify
 *   GET    /client/v4/zones?name=&page=&per_page=
 *   POST   /client/v4/zones                                 {name}  (tests and local users make zones so)
 *   GET    /client/v4/zones/{zone}/dns_records?type=&name=&page=&per_page=
 *   POST   /client/v4/zones/{zone}/dns_records              {type, name, content, ttl?, priority?, proxied?}
 *   PUT    /client/v4/zones/{zone}/dns_records/{id}         (PATCH too)
 *   DELETE /client/v4/zones/{zone}/dns_records/{id}
 *
 * Every answer is Cloudflare's envelope `{success, errors: [{code, message}], messages, result,
 * result_info?}`. Authentication is `Authorization: Bearer <token>` with one of `tokens`: a missing or
 * malformed header is 400 code 6003 (error_chain 6111), an unknown token 403 code 10000 "Authentication
 * error". Record types: A, AAAA, CNAME, MX, TXT. TXT content may be quoted strings or plain text; it is
 * answered quoted, as Cloudflare does.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { DnsRecordError } from '../dns/errors';
import { serveHttp } from '../http-server';
import { fromQuoted, JsonState, setAt, setsOfZone, toQuoted, zoneOfName, type DnsRecordsBackend } from '../dns/hosted';
import { isAtOrBelow, parseName } from '../dns/names';
import { RECORD_TYPES, type DnsRecordSet, type DnsRecordType } from '../dns/types';

/** The token the local cloud's fake accepts (docs/domains.md, "DNS apply", trying it locally). */
export const CLOUDFLARE_LOCAL_TOKEN = 'local-cloudflare-token-0123456789abcdef';
export const CLOUDFLARE_LOCAL_ACCOUNT = { id: '0123456789abcdef0123456789abcdef', name: 'Local account' };

export interface CloudflareEmulatorOptions {
  port?: number;
  host?: string;
  dns: DnsRecordsBackend;
  /** Accepted API tokens; default [CLOUDFLARE_LOCAL_TOKEN]. */
  tokens?: readonly string[];
  dataDir?: string;
  log?: (msg: string) => void;
}

export interface CloudflareZone {
  id: string;
  name: string;
  status: 'active';
  created_on: string;
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

interface Reply {
  status: number;
  body: unknown;
}

interface RecordView {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: DnsRecordType;
  content: string;
  priority?: number;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  comment: string | null;
  tags: string[];
  created_on: string;
  modified_on: string;
}

class Fault extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly chain?: { code: number; message: string }[],
  ) {
    super(message);
  }
}

const ok = (result: unknown, extra: Record<string, unknown> = {}, status = 200): Reply => ({ status, body: { success: true, errors: [], messages: [], result, ...extra } });
const EPOCH = '2024-01-01T00:00:00.000000Z';
const recordId = (name: string, type: string, value: string) => createHash('sha256').update(`${name}|${type}|${value}`).digest('hex').slice(0, 32);
/** A record's TTL: 1 is "automatic" at Cloudflare (300 s here). */
const ttlOf = (ttl: unknown) => (ttl === undefined || ttl === 1 ? 300 : ttl);

export async function startCloudflareEmulator(options: CloudflareEmulatorOptions): Promise<CloudflareEmulator> {
  const log = options.log ?? (() => undefined);
  const tokens = options.tokens ?? [CLOUDFLARE_LOCAL_TOKEN];
  const state = new JsonState<{ version: 1; zones: CloudflareZone[] }>(options.dataDir ? path.join(options.dataDir, 'zones.json') : undefined, { version: 1, zones: [] });
  const zones: CloudflareZone[] = [...state.load().zones];
  const save = () => state.save({ version: 1, zones });

  const createZone = (rawName: unknown): CloudflareZone => {
    let name: string;
    try {
      name = parseName(rawName, 'name');
    } catch (error) {
      throw new Fault(400, 1097, `Invalid zone name: ${(error as Error).message}`);
    }
    if (zones.some((zone) => zone.name === name)) throw new Fault(400, 1061, `${name} already exists`);
    const zone: CloudflareZone = { id: randomBytes(16).toString('hex'), name, status: 'active', created_on: new Date().toISOString() };
    zones.push(zone);
    save();
    return zone;
  };

  const zoneById = (id: string): CloudflareZone => {
    const zone = zones.find((z) => z.id === id);
    if (!zone) throw new Fault(404, 7003, 'Could not route to /zones/' + id + ', perhaps your object identifier is invalid?');
    return zone;
  };

  const zonePublic = (zone: CloudflareZone) => ({
    id: zone.id,
    name: zone.name,
    status: zone.status,
    paused: false,
    type: 'full',
    development_mode: 0,
    name_servers: ['ada.ns.cloudflare.test', 'bob.ns.cloudflare.test'],
    account: CLOUDFLARE_LOCAL_ACCOUNT,
    created_on: zone.created_on,
    modified_on: zone.created_on,
  });

  const setsOf = (zone: CloudflareZone): DnsRecordSet[] =>
    setsOfZone(
      options.dns,
      zone.name,
      zones.map((z) => z.name),
    );

  /** The zone's records: one per value of each set in it. */
  const recordsOf = (zone: CloudflareZone): RecordView[] => setsOf(zone).flatMap((set) => set.values.map((value) => view(zone, set, value)));

  const view = (zone: CloudflareZone, set: DnsRecordSet, value: string): RecordView => {
    const mx = set.type === 'MX' ? /^(\d+)\s+(\S+)$/.exec(value) : null;
    return {
      id: recordId(set.name, set.type, value),
      zone_id: zone.id,
      zone_name: zone.name,
      name: set.name,
      type: set.type,
      content: set.type === 'TXT' ? toQuoted(value) : mx ? mx[2]! : value,
      ...(mx ? { priority: Number(mx[1]) } : {}),
      proxiable: set.type === 'A' || set.type === 'AAAA' || set.type === 'CNAME',
      proxied: false,
      ttl: set.ttl ?? 300,
      comment: null,
      tags: [],
      created_on: EPOCH,
      modified_on: EPOCH,
    };
  };

  /** The DNS emulator value of a record body, validated as Cloudflare would. */
  const valueOf = (zone: CloudflareZone, body: Record<string, unknown>): { name: string; type: DnsRecordType; value: string; ttl: number } => {
    const type = String(body.type ?? '').toUpperCase() as DnsRecordType;
    if (!RECORD_TYPES.includes(type)) throw new Fault(400, 9004, `DNS record type "${String(body.type)}" is not supported by this fake (A, AAAA, CNAME, MX, TXT).`);
    let name: string;
    try {
      const raw = String(body.name ?? '').trim().toLowerCase().replace(/\.$/, '');
      // Cloudflare takes names relative to the zone too ("@" is the apex).
      name = parseName(raw === '@' ? zone.name : isAtOrBelow(raw, zone.name) ? raw : `${raw}.${zone.name}`, 'name');
    } catch (error) {
      throw new Fault(400, 9005, `Content for ${type} record is invalid: ${(error as Error).message}`);
    }
    if (zoneOfName(name, zones.map((z) => z.name)) !== zone.name) throw new Fault(400, 9005, `The record name ${name} does not belong to zone ${zone.name}.`);
    if (typeof body.content !== 'string' || body.content.trim() === '') throw new Fault(400, 9005, 'content is required.');
    if (body.proxied === true) throw new Fault(400, 9004, 'This fake does not proxy records: send proxied false.');
    const ttl = ttlOf(body.ttl);
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 30 || ttl > 86400) throw new Fault(400, 9021, 'Invalid TTL. Must be between 30 and 86400 seconds, or 1 for Automatic.');
    let value = body.content.trim();
    if (type === 'TXT') {
      const text = value.startsWith('"') ? fromQuoted(value) : value;
      if (text === null) throw new Fault(400, 9005, 'Content for TXT record is invalid: unbalanced quotes.');
      value = text;
    } else if (type === 'MX') {
      const priority = body.priority;
      if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 65535) throw new Fault(400, 9100, 'MX records need a priority between 0 and 65535.');
      value = `${priority} ${value}`;
    }
    return { name, type, value, ttl };
  };

  const findRecord = (zone: CloudflareZone, id: string): { set: DnsRecordSet; value: string } => {
    for (const set of setsOf(zone)) {
      for (const value of set.values) if (recordId(set.name, set.type, value) === id) return { set, value };
    }
    throw new Fault(404, 81044, 'Record does not exist.');
  };

  /** Writes through the DNS emulator; its refusals (a CNAME next to other records) become Cloudflare's. */
  const write = (run: () => void) => {
    try {
      run();
    } catch (error) {
      if (error instanceof DnsRecordError) {
        const cname = /CNAME/.test(error.message);
        throw new Fault(400, cname ? 81053 : 9005, cname ? `An A, AAAA, or CNAME record with that host already exists. (${error.message})` : error.message);
      }
      throw error;
    }
  };

  const addRecord = (zone: CloudflareZone, body: Record<string, unknown>): RecordView => {
    const { name, type, value, ttl } = valueOf(zone, body);
    const existing = setAt(options.dns, name, type);
    if (existing?.values.includes(value)) throw new Fault(400, 81058, 'An identical record already exists.');
    if (type === 'CNAME' && existing) throw new Fault(400, 81054, 'A CNAME record with that host already exists.');
    write(() => options.dns.setRecords({ name, type, values: [...(existing?.values ?? []), value], ttl }));
    return view(zone, setAt(options.dns, name, type)!, value);
  };

  const removeRecord = (set: DnsRecordSet, value: string) => {
    const rest = set.values.filter((v) => v !== value);
    if (rest.length === 0) options.dns.deleteRecords(set.name, set.type);
    else options.dns.setRecords({ ...set, values: rest });
  };

  function route(method: string, pathname: string, query: URLSearchParams, body: Record<string, unknown>): Reply {
    const p = pathname.replace(/^\/client\/v4/, '');
    let m: RegExpExecArray | null;
    if (method === 'GET' && p === '/user/tokens/verify') return ok({ id: createHash('sha256').update('token').digest('hex').slice(0, 32), status: 'active' });
    if (p === '/zones') {
      if (method === 'POST') return ok(zonePublic(createZone(body.name)));
      if (method === 'GET') {
        const name = query.get('name');
        const list = zones.filter((zone) => name === null || zone.name === name.toLowerCase().replace(/\.$/, '')).map(zonePublic);
        return paged(list, query, 50);
      }
    }
    if ((m = /^\/zones\/([^/]+)$/.exec(p)) && method === 'GET') return ok(zonePublic(zoneById(m[1]!)));
    if ((m = /^\/zones\/([^/]+)\/dns_records$/.exec(p))) {
      const zone = zoneById(m[1]!);
      if (method === 'GET') {
        const type = query.get('type')?.toUpperCase();
        const name = (query.get('name') ?? query.get('name.exact'))?.toLowerCase().replace(/\.$/, '');
        const list = recordsOf(zone).filter((record) => (!type || record.type === type) && (!name || record.name === name));
        return paged(list, query, 100);
      }
      if (method === 'POST') return ok(addRecord(zone, body));
    }
    if ((m = /^\/zones\/([^/]+)\/dns_records\/([^/]+)$/.exec(p))) {
      const zone = zoneById(m[1]!);
      const { set, value } = findRecord(zone, m[2]!);
      if (method === 'GET') return ok(view(zone, set, value));
      if (method === 'DELETE') {
        write(() => removeRecord(set, value));
        return ok({ id: m[2]! });
      }
      if (method === 'PUT' || method === 'PATCH') {
        const merged: Record<string, unknown> =
          method === 'PATCH' ? { type: set.type, name: set.name, content: view(zone, set, value).content, priority: view(zone, set, value).priority, ttl: set.ttl, ...body } : body;
        const next = valueOf(zone, merged);
        const sameSet = next.name === set.name && next.type === set.type;
        const target = sameSet ? set : setAt(options.dns, next.name, next.type);
        if (target?.values.includes(next.value) && !(sameSet && next.value === value)) throw new Fault(400, 81058, 'An identical record already exists.');
        write(() => {
          if (sameSet) options.dns.setRecords({ name: set.name, type: set.type, ttl: next.ttl, values: set.values.map((v) => (v === value ? next.value : v)) });
          else {
            options.dns.setRecords({ name: next.name, type: next.type, ttl: next.ttl, values: [...(target?.values ?? []), next.value] });
            removeRecord(set, value);
          }
        });
        return ok(view(zone, setAt(options.dns, next.name, next.type)!, next.value));
      }
    }
    throw new Fault(404, 7000, 'No route for that URI');
  }

  const { url, stop } = await serveHttp(options, (req, raw, res) => {
    let reply: Reply;
    try {
      const target = new URL(req.url ?? '/', 'http://cloudflare.invalid');
      const auth = req.headers.authorization ?? '';
      const token = /^Bearer ([A-Za-z0-9_-]{20,})$/.exec(auth)?.[1];
      if (!token) throw new Fault(400, 6003, 'Invalid request headers', [{ code: 6111, message: 'Invalid format for Authorization header' }]);
      if (!tokens.includes(token)) throw new Fault(403, 10000, 'Authentication error');
      const method = req.method ?? 'GET';
      let body: Record<string, unknown> = {};
      const text = raw.toString('utf8');
      if (text.trim() !== '') {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
          else throw new Error('not an object');
        } catch {
          throw new Fault(400, 9207, 'Request body is invalid.');
        }
      }
      reply = route(method, target.pathname, target.searchParams, body);
    } catch (error) {
      if (error instanceof Fault) {
        reply = { status: error.status, body: { success: false, errors: [{ code: error.code, message: error.message, ...(error.chain ? { error_chain: error.chain } : {}) }], messages: [], result: null } };
      } else {
        log(`cloudflare: ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
        reply = { status: 500, body: { success: false, errors: [{ code: 10001, message: 'Internal error in the Cloudflare fake' }], messages: [], result: null } };
      }
    }
    const payload = JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'cf-ray': randomBytes(8).toString('hex') });
    res.end(payload);
  });
  log(`cloudflare: listening on ${url}/client/v4${options.dataDir ? `, zones in ${options.dataDir}` : ', in memory'}`);
  return {
    url,
    apiUrl: `${url}/client/v4`,
    createZone: (name) => createZone(name),
    zones: () => zones.map((zone) => ({ ...zone })),
    stop,
  };
}

function paged<T>(list: T[], query: URLSearchParams, defaultPerPage: number): Reply {
  const perPage = Math.min(Math.max(Number(query.get('per_page') ?? defaultPerPage) || defaultPerPage, 1), 5000);
  const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
  const items = list.slice((page - 1) * perPage, page * perPage);
  return ok(items, { result_info: { page, per_page: perPage, count: items.length, total_count: list.length, total_pages: Math.max(Math.ceil(list.length / perPage), 1) } });
}
