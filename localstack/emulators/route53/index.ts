/**
 * The Route 53 emulator: Route 53's REST-XML API (2013-04-01) for the operations DNS apply uses, plus
 * CreateHostedZone so tests and local users can make zones with the real SDK or CLI. Hosted zones are
 * its own (memory, or `<dataDir>/zones.json`); their records are a view over the DNS emulator's record
 * sets (../dns/hosted.ts), so a change written here is at once what the local resolvers answer.
 *
 *   POST /2013-04-01/hostedzone                    CreateHostedZone
 *   GET  /2013-04-01/hostedzonesbyname             ListHostedZonesByName (dnsname, hostedzoneid, maxitems)
 *   GET  /2013-04-01/hostedzone/{Id}/rrset         ListResourceRecordSets (name, type, maxitems); SOA and NS synthesised
 *   POST /2013-04-01/hostedzone/{Id}/rrset         ChangeResourceRecordSets (CREATE, UPSERT, DELETE; all or nothing)
 *   GET  /2013-04-01/change/{Id}                   GetChange (PENDING until syncDelayMs has passed, then INSYNC)
 *
 * Requests must carry a SigV4 Authorization header; its access key id must be one of `accessKeys`
 * when given (else 403 InvalidClientTokenId, as Route 53 answers an unknown key). Signatures are not
 * checked. Record types: A, AAAA, CNAME, MX, TXT (the DNS emulator's). Errors are Route 53's
 * `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { DnsRecordError } from '../dns/errors';
import { serveHttp } from '../http-server';
import { fromQuoted, JsonState, setAt, setsOfZone, toQuoted, type DnsRecordsBackend } from '../dns/hosted';
import { canonicalName, isAtOrBelow, parseName } from '../dns/names';
import { RECORD_TYPES, type DnsRecordSet, type DnsRecordType } from '../dns/types';
import { validateRecordSet } from '../dns/validate';
import { child, children, document, leaf, node, parseXml, textOf, XmlError, type XmlElement, type XmlNode } from './xml';

/** An access key the local cloud's emulator accepts besides its own ('local'): one-time credentials in tests and local tries. */
export const ROUTE53_LOCAL_ACCESS_KEY_ID = 'AKIALOCALROUTE53TEST';

export interface Route53EmulatorOptions {
  port?: number;
  host?: string;
  /** Where the records live: the DNS emulator. */
  dns: DnsRecordsBackend;
  /** Absolute path for zones.json; undefined = memory only. */
  dataDir?: string;
  /** Accepted access key ids; undefined = any. */
  accessKeys?: readonly string[];
  /** How long a change stays PENDING before GetChange answers INSYNC; default 0. */
  syncDelayMs?: number;
  log?: (msg: string) => void;
}

export interface HostedZone {
  id: string;
  /** Canonical: lower case, no trailing dot. */
  name: string;
  caller_reference: string;
  comment: string | null;
  private_zone: boolean;
  created_at: string;
}

export interface Route53Emulator {
  /** Endpoint for the SDK (AWS_ENDPOINT_URL_ROUTE_53). */
  url: string;
  /** A public hosted zone for `name` (a new one each call, as Route 53 allows). */
  createZone(name: string): HostedZone;
  zones(): HostedZone[];
  stop(): Promise<void>;
}

interface Change {
  id: string;
  submitted_at: string;
  comment: string | null;
  syncAtMs: number;
}

class Route53Fault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const NAME_SERVERS = ['ns-1.local-route53.test', 'ns-2.local-route53.test'];
const SOA = (zone: string) => `${NAME_SERVERS[0]}. hostmaster.${zone}. 1 7200 900 1209600 86400`;

/** Route 53's order: by name with its labels reversed (com.example.www), then by type. */
function orderKey(name: string): string {
  return canonicalName(name).split('.').reverse().join('.');
}

const zoneId = () => `Z${randomBytes(10).toString('hex').toUpperCase().slice(0, 19)}`;
const changeId = () => `C${randomBytes(10).toString('hex').toUpperCase().slice(0, 19)}`;
const dotted = (name: string) => (name.endsWith('.') ? name : `${name}.`);

export async function startRoute53Emulator(options: Route53EmulatorOptions): Promise<Route53Emulator> {
  const log = options.log ?? (() => undefined);
  const state = new JsonState<{ version: 1; zones: HostedZone[] }>(options.dataDir ? path.join(options.dataDir, 'zones.json') : undefined, { version: 1, zones: [] });
  const zones: HostedZone[] = [...state.load().zones];
  const changes = new Map<string, Change>();
  const save = () => state.save({ version: 1, zones });

  const createZone = (rawName: string, callerReference: string = randomUUID(), comment: string | null = null, privateZone = false): HostedZone => {
    let name: string;
    try {
      name = parseName(rawName, 'Name');
    } catch (error) {
      throw new Route53Fault(400, 'InvalidDomainName', (error as Error).message);
    }
    if (zones.some((zone) => zone.caller_reference === callerReference)) {
      throw new Route53Fault(409, 'HostedZoneAlreadyExists', `A hosted zone has already been created with the specified caller reference.`);
    }
    const zone: HostedZone = { id: zoneId(), name, caller_reference: callerReference, comment, private_zone: privateZone, created_at: new Date().toISOString() };
    zones.push(zone);
    save();
    return zone;
  };

  const zoneById = (id: string): HostedZone => {
    const zone = zones.find((z) => z.id === id.replace(/^\/?hostedzone\//, ''));
    if (!zone) throw new Route53Fault(404, 'NoSuchHostedZone', `No hosted zone found with ID: ${id}`);
    return zone;
  };

  const newChange = (comment: string | null): Change => {
    const change = { id: changeId(), submitted_at: new Date().toISOString(), comment, syncAtMs: Date.now() + (options.syncDelayMs ?? 0) };
    changes.set(change.id, change);
    return change;
  };

  const changeInfo = (change: Change, status?: 'PENDING' | 'INSYNC'): XmlNode =>
    node('ChangeInfo', [
      leaf('Id', `/change/${change.id}`),
      leaf('Status', status ?? (Date.now() >= change.syncAtMs ? 'INSYNC' : 'PENDING')),
      leaf('SubmittedAt', change.submitted_at),
      ...(change.comment ? [leaf('Comment', change.comment)] : []),
    ]);

  /** Every set of the zone as Route 53 lists it (SOA and NS at the apex first), in Route 53's order. */
  const zoneSets = (zone: HostedZone): DnsRecordSet[] => {
    const others = zones.filter((z) => z.id !== zone.id && !z.private_zone).map((z) => z.name);
    const sets = setsOfZone(options.dns, zone.name, others);
    const synthetic: { name: string; type: string; values: string[]; ttl: number }[] = [
      { name: zone.name, type: 'NS', values: NAME_SERVERS.map(dotted), ttl: 172800 },
      { name: zone.name, type: 'SOA', values: [SOA(zone.name)], ttl: 900 },
    ];
    return [...(synthetic as unknown as DnsRecordSet[]), ...sets].sort((a, b) => {
      const ka = orderKey(a.name);
      const kb = orderKey(b.name);
      return ka === kb ? a.type.localeCompare(b.type) : ka < kb ? -1 : 1;
    });
  };

  const hostedZoneNode = (zone: HostedZone): XmlNode =>
    node('HostedZone', [
      leaf('Id', `/hostedzone/${zone.id}`),
      leaf('Name', dotted(zone.name)),
      leaf('CallerReference', zone.caller_reference),
      node('Config', [...(zone.comment ? [leaf('Comment', zone.comment)] : []), leaf('PrivateZone', zone.private_zone)]),
      leaf('ResourceRecordSetCount', zoneSets(zone).length),
    ]);

  const recordSetNode = (set: DnsRecordSet): XmlNode =>
    node('ResourceRecordSet', [
      leaf('Name', dotted(set.name)),
      leaf('Type', set.type),
      leaf('TTL', set.ttl ?? 60),
      node(
        'ResourceRecords',
        set.values.map((value) => node('ResourceRecord', [leaf('Value', set.type === 'TXT' ? toQuoted(value) : value)])),
      ),
    ]);

  // ---- operations ----

  function createHostedZone(body: XmlElement): { status: number; xml: string; headers?: Record<string, string> } {
    const name = textOf(body, 'Name');
    const caller = textOf(body, 'CallerReference');
    if (!name || !caller) throw new Route53Fault(400, 'InvalidInput', 'Name and CallerReference are required.');
    const config = child(body, 'HostedZoneConfig');
    const zone = createZone(name, caller, textOf(config, 'Comment') ?? null, textOf(config, 'PrivateZone') === 'true');
    const change = newChange(null);
    const xml = document('CreateHostedZoneResponse', [
      hostedZoneNode(zone),
      changeInfo(change),
      node('DelegationSet', [node('NameServers', NAME_SERVERS.map((ns) => leaf('NameServer', ns)))]),
    ]);
    return { status: 201, xml, headers: { location: `https://route53.amazonaws.com/2013-04-01/hostedzone/${zone.id}` } };
  }

  function listHostedZonesByName(query: URLSearchParams): string {
    const dnsName = query.get('dnsname');
    const startId = query.get('hostedzoneid');
    const maxItems = Math.min(Math.max(Number(query.get('maxitems') ?? 100) || 100, 1), 100);
    if (startId && !dnsName) throw new Route53Fault(400, 'InvalidInput', 'hostedzoneid requires dnsname.');
    let start = '';
    if (dnsName !== null) {
      try {
        start = orderKey(parseName(dnsName, 'dnsname'));
      } catch (error) {
        throw new Route53Fault(400, 'InvalidDomainName', (error as Error).message);
      }
    }
    const sorted = [...zones].sort((a, b) => (orderKey(a.name) === orderKey(b.name) ? a.id.localeCompare(b.id) : orderKey(a.name) < orderKey(b.name) ? -1 : 1));
    let from = sorted.filter((zone) => orderKey(zone.name) >= start);
    if (startId) {
      const at = from.findIndex((zone) => zone.id === startId.replace(/^\/?hostedzone\//, ''));
      if (at > 0) from = from.slice(at);
    }
    const page = from.slice(0, maxItems);
    const next = from[maxItems];
    return document('ListHostedZonesByNameResponse', [
      node('HostedZones', page.map(hostedZoneNode)),
      ...(dnsName !== null ? [leaf('DNSName', dnsName)] : []),
      ...(startId ? [leaf('HostedZoneId', startId)] : []),
      leaf('IsTruncated', next !== undefined),
      ...(next ? [leaf('NextDNSName', dotted(next.name)), leaf('NextHostedZoneId', next.id)] : []),
      leaf('MaxItems', maxItems),
    ]);
  }

  function listResourceRecordSets(zone: HostedZone, query: URLSearchParams): string {
    const startName = query.get('name');
    const startType = query.get('type');
    if (startType && !startName) throw new Route53Fault(400, 'InvalidInput', 'The type parameter requires the name parameter.');
    const maxItems = Math.min(Math.max(Number(query.get('maxitems') ?? 300) || 300, 1), 300);
    let sets = zoneSets(zone);
    if (startName) {
      const key = orderKey(startName);
      sets = sets.filter((set) => {
        const k = orderKey(set.name);
        return k > key || (k === key && (!startType || set.type >= startType));
      });
    }
    const page = sets.slice(0, maxItems);
    const next = sets[maxItems];
    return document('ListResourceRecordSetsResponse', [
      node('ResourceRecordSets', page.map(recordSetNode)),
      leaf('IsTruncated', next !== undefined),
      ...(next ? [leaf('NextRecordName', dotted(next.name)), leaf('NextRecordType', next.type)] : []),
      leaf('MaxItems', maxItems),
    ]);
  }

  function changeResourceRecordSets(zone: HostedZone, body: XmlElement): string {
    const batch = child(body, 'ChangeBatch');
    const changeList = children(child(batch, 'Changes'), 'Change');
    if (changeList.length === 0) throw new Route53Fault(400, 'InvalidInput', 'ChangeBatch.Changes must contain at least one Change.');
    // The state after the batch, per (name, type): validated as a whole before anything is written.
    const after = new Map<string, DnsRecordSet | null>();
    const current = (name: string, type: DnsRecordType): DnsRecordSet | null => {
      const key = `${name} ${type}`;
      if (after.has(key)) return after.get(key)!;
      return setAt(options.dns, name, type) ?? null;
    };
    const problems: string[] = [];
    for (const change of changeList) {
      const action = textOf(change, 'Action');
      const set = child(change, 'ResourceRecordSet');
      const rawName = textOf(set, 'Name') ?? '';
      const type = (textOf(set, 'Type') ?? '') as DnsRecordType;
      let name: string;
      try {
        name = parseName(rawName.replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d))), 'Name');
      } catch (error) {
        problems.push(`Invalid Resource Record: ${(error as Error).message}`);
        continue;
      }
      const where = `[name='${dotted(name)}', type='${type}']`;
      if (!isAtOrBelow(name, zone.name)) {
        problems.push(`RRSet with DNS name ${dotted(name)} is not permitted in zone ${dotted(zone.name)}`);
        continue;
      }
      if (!RECORD_TYPES.includes(type)) {
        problems.push(`The emulator supports ${RECORD_TYPES.join(', ')} record sets; ${type || '(none)'} ${where} is not one of them`);
        continue;
      }
      if (child(set, 'AliasTarget') || textOf(set, 'SetIdentifier')) {
        problems.push(`Alias and routing-policy record sets are not supported by the emulator ${where}`);
        continue;
      }
      const values: string[] = [];
      for (const record of children(child(set, 'ResourceRecords'), 'ResourceRecord')) {
        const value = textOf(record, 'Value') ?? '';
        if (type === 'TXT') {
          const text = fromQuoted(value);
          if (text === null) {
            problems.push(`Invalid Resource Record: FATAL problem: InvalidCharacterString (Value should be enclosed in quotation marks) encountered with '${value}'`);
            continue;
          }
          values.push(text);
        } else values.push(value);
      }
      const ttl = Number(textOf(set, 'TTL') ?? NaN);
      const existing = current(name, type);
      if (action === 'DELETE') {
        if (!existing) problems.push(`Tried to delete resource record set ${where} but it was not found`);
        else after.set(`${name} ${type}`, null);
        continue;
      }
      if (action !== 'CREATE' && action !== 'UPSERT') {
        problems.push(`Unknown action ${action ?? '(none)'} ${where}`);
        continue;
      }
      if (action === 'CREATE' && existing) {
        problems.push(`Tried to create resource record set ${where} but it already exists`);
        continue;
      }
      if (!Number.isInteger(ttl)) {
        problems.push(`Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords]], but found none in Change with [Action=${action}, Name=${dotted(name)}, Type=${type}]`);
        continue;
      }
      try {
        after.set(`${name} ${type}`, validateRecordSet({ name, type, values, ttl }).set);
      } catch (error) {
        problems.push(`Invalid Resource Record: ${(error as Error).message} ${where}`);
      }
    }
    // A CNAME must be alone at its name (RFC 1034), after the whole batch.
    for (const name of new Set([...after.keys()].map((key) => key.split(' ')[0]!))) {
      const typesThere = new Set<string>(options.dns.listRecords(name).filter((s) => s.name === name).map((s) => s.type));
      for (const [key, set] of after) {
        const [setName, type] = key.split(' ');
        if (setName !== name) continue;
        if (set) typesThere.add(type!);
        else typesThere.delete(type!);
      }
      if (typesThere.has('CNAME') && typesThere.size > 1) {
        const others = [...typesThere].filter((t) => t !== 'CNAME').join(', ');
        problems.push(`RRSet of type CNAME with DNS name ${dotted(name)} is not permitted because a conflicting RRSet of type ${others} with the same DNS name exists in zone ${dotted(zone.name)}.`);
      }
    }
    if (problems.length > 0) throw new Route53Fault(400, 'InvalidChangeBatch', [...new Set(problems)].join('; '));
    // Deletions first, so a CNAME replacing other records (or the reverse) never meets them.
    const entries = [...after.entries()].sort(([, a], [, b]) => (a === null ? -1 : 0) - (b === null ? -1 : 0));
    for (const [key, set] of entries) {
      const [name, type] = key.split(' ') as [string, DnsRecordType];
      if (set === null) options.dns.deleteRecords(name, type);
      else options.dns.setRecords(set);
    }
    const change = newChange(textOf(batch, 'Comment') ?? null);
    log(`route53: ${changeList.length} change(s) in ${zone.name} (${change.id})`);
    return document('ChangeResourceRecordSetsResponse', [changeInfo(change, 'PENDING')]);
  }

  // ---- HTTP ----

  const { url, stop } = await serveHttp(options, (req, raw, res) => {
    const requestId = randomUUID();
    const reply = (status: number, xml: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId, ...headers });
      res.end(xml);
    };
    try {
      const target = new URL(req.url ?? '/', 'http://route53.invalid');
      const method = req.method ?? 'GET';
      const credential = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1];
      if (!credential) throw new Route53Fault(403, 'MissingAuthenticationToken', 'Missing Authentication Token');
      if (options.accessKeys && !options.accessKeys.includes(credential)) {
        throw new Route53Fault(403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
      }
      const body = () => {
        try {
          return parseXml(raw.toString('utf8'));
        } catch (error) {
          throw new Route53Fault(400, 'InvalidInput', `The XML document is malformed: ${error instanceof XmlError ? error.message : String(error)}`);
        }
      };
      const p = target.pathname;
      let match: RegExpExecArray | null;
      if (method === 'POST' && p === '/2013-04-01/hostedzone') {
        const out = createHostedZone(body());
        return reply(out.status, out.xml, out.headers);
      }
      if (method === 'GET' && p === '/2013-04-01/hostedzonesbyname') return reply(200, listHostedZonesByName(target.searchParams));
      if ((match = /^\/2013-04-01\/hostedzone\/([^/]+)\/rrset\/?$/.exec(p))) {
        const zone = zoneById(decodeURIComponent(match[1]!));
        if (method === 'GET') return reply(200, listResourceRecordSets(zone, target.searchParams));
        if (method === 'POST') return reply(200, changeResourceRecordSets(zone, body()));
      }
      if (method === 'GET' && (match = /^\/2013-04-01\/change\/([^/]+)$/.exec(p))) {
        const change = changes.get(decodeURIComponent(match[1]!).replace(/^\/?change\//, ''));
        if (!change) throw new Route53Fault(404, 'NoSuchChange', `A change with the specified change ID does not exist.`);
        return reply(200, document('GetChangeResponse', [changeInfo(change)]));
      }
      throw new Route53Fault(404, 'UnknownOperationException', `The Route 53 emulator does not implement ${method} ${p}.`);
    } catch (error) {
      const fault =
        error instanceof Route53Fault ? error : error instanceof DnsRecordError ? new Route53Fault(400, 'InvalidChangeBatch', error.message) : new Route53Fault(500, 'InternalFailure', (error as Error).message);
      if (fault.status >= 500) log(`route53: ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
      reply(
        fault.status,
        document('ErrorResponse', [
          node('Error', [leaf('Type', fault.status >= 500 ? 'Receiver' : 'Sender'), leaf('Code', fault.code), leaf('Message', fault.message)]),
          leaf('RequestId', requestId),
        ]),
      );
    }
  });
  log(`route53: listening on ${url}${options.dataDir ? `, zones in ${options.dataDir}` : ', in memory'}`);
  return {
    url,
    createZone: (name) => createZone(name),
    zones: () => zones.map((zone) => ({ ...zone })),
    stop,
  };
}
