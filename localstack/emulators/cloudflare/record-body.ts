/**
 * A DNS record's request body (create, overwrite, edit) read as Cloudflare reads it, into the name, type,
 * value and TTL the DNS emulator keeps: names relative to the zone too ("@" is the apex) but inside it and
 * no deeper zone of the fake; TXT content quoted strings or plain text; MX priority apart; TTL 30-86400 or
 * 1 for "automatic" (300 s here); never proxied.
 */
import { fromQuoted, zoneOfName } from '../dns/hosted';
import { isAtOrBelow, parseName } from '../dns/names';
import { RECORD_TYPES, type DnsRecordType } from '../dns/types';
import { CloudflareFault } from './errors';
import type { CloudflareState } from './state';
import type { CloudflareZone } from './types';

export interface RecordValue {
  name: string;
  type: DnsRecordType;
  /** The value as the DNS emulator keeps it (TXT unquoted, MX `<priority> <exchange>`). */
  value: string;
  ttl: number;
}

/** A record's TTL: 1 is "automatic" at Cloudflare (300 s here). */
const ttlOf = (ttl: unknown) => (ttl === undefined || ttl === 1 ? 300 : ttl);

/** The DNS emulator value of a record body, validated as Cloudflare would. */
export function recordValueOf(state: CloudflareState, zone: CloudflareZone, body: Record<string, unknown>): RecordValue {
  const type = String(body.type ?? '').toUpperCase() as DnsRecordType;
  if (!RECORD_TYPES.includes(type))
    throw new CloudflareFault(400, 9004, `DNS record type "${String(body.type)}" is not supported by this fake (A, AAAA, CNAME, MX, TXT).`);
  const name = recordName(state, zone, type, body.name);
  if (typeof body.content !== 'string' || body.content.trim() === '') throw new CloudflareFault(400, 9005, 'content is required.');
  if (body.proxied === true) throw new CloudflareFault(400, 9004, 'This fake does not proxy records: send proxied false.');
  const ttl = ttlOf(body.ttl);
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 30 || ttl > 86400)
    throw new CloudflareFault(400, 9021, 'Invalid TTL. Must be between 30 and 86400 seconds, or 1 for Automatic.');
  return { name, type, value: contentValue(type, body.content.trim(), body.priority), ttl };
}

/** The record's full name: Cloudflare takes names relative to the zone too ("@" is the apex). */
function recordName(state: CloudflareState, zone: CloudflareZone, type: DnsRecordType, rawName: unknown): string {
  let name: string;
  try {
    const raw = String(rawName ?? '')
      .trim()
      .toLowerCase()
      .replace(/\.$/, '');
    name = parseName(raw === '@' ? zone.name : isAtOrBelow(raw, zone.name) ? raw : `${raw}.${zone.name}`, 'name');
  } catch (error) {
    throw new CloudflareFault(400, 9005, `Content for ${type} record is invalid: ${(error as Error).message}`);
  }
  if (
    zoneOfName(
      name,
      state.zones.map((z) => z.name),
    ) !== zone.name
  )
    throw new CloudflareFault(400, 9005, `The record name ${name} does not belong to zone ${zone.name}.`);
  return name;
}

/** The content as the DNS emulator's value: TXT unquoted, MX with its priority in front. */
function contentValue(type: DnsRecordType, content: string, priority: unknown): string {
  if (type === 'TXT') {
    const text = content.startsWith('"') ? fromQuoted(content) : content;
    if (text === null) throw new CloudflareFault(400, 9005, 'Content for TXT record is invalid: unbalanced quotes.');
    return text;
  }
  if (type === 'MX') {
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 65535)
      throw new CloudflareFault(400, 9100, 'MX records need a priority between 0 and 65535.');
    return `${priority} ${content}`;
  }
  return content;
}
