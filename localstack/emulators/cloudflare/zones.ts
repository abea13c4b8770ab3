/**
 * The fake's zones: creating one (one per name, as Cloudflare allows within an account), finding one by
 * its id, and a zone as the API answers it (always active, never paused, on two made-up name servers).
 */
import { randomBytes } from 'node:crypto';
import { parseName } from '../dns/names';
import { CLOUDFLARE_LOCAL_ACCOUNT } from './constants';
import { CloudflareFault } from './errors';
import type { CloudflareState } from './state';
import type { CloudflareZone } from './types';

export function addZone(state: CloudflareState, rawName: unknown): CloudflareZone {
  let name: string;
  try {
    name = parseName(rawName, 'name');
  } catch (error) {
    throw new CloudflareFault(400, 1097, `Invalid zone name: ${(error as Error).message}`);
  }
  if (state.zones.some((zone) => zone.name === name)) throw new CloudflareFault(400, 1061, `${name} already exists`);
  const zone: CloudflareZone = { id: randomBytes(16).toString('hex'), name, status: 'active', created_on: new Date().toISOString() };
  state.zones.push(zone);
  state.saveZones();
  return zone;
}

/** The zone of `id`; 404 code 7003 when there is none. */
export function zoneById(state: CloudflareState, id: string): CloudflareZone {
  const zone = state.zones.find((z) => z.id === id);
  if (!zone) throw new CloudflareFault(404, 7003, `Could not route to /zones/${id}, perhaps your object identifier is invalid?`);
  return zone;
}

export const zoneView = (zone: CloudflareZone) => ({
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
