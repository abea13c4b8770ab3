/**
 * The emulator's hosted zones: creating one (several per name, as Route 53 allows; one per caller
 * reference) and finding one by its id, with or without the `/hostedzone/` prefix the API writes it with.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseName } from '../dns/names';
import { Route53Fault } from './errors';
import type { Route53State } from './state';
import type { HostedZone } from './types';

const newZoneId = () => `Z${randomBytes(10).toString('hex').toUpperCase().slice(0, 19)}`;

/** A zone id as the zones keep it: `/hostedzone/Z123` and `hostedzone/Z123` are Z123. */
export const bareZoneId = (id: string) => id.replace(/^\/?hostedzone\//, '');

export function addZone(
  state: Route53State,
  rawName: string,
  callerReference: string = randomUUID(),
  comment: string | null = null,
  privateZone = false,
): HostedZone {
  let name: string;
  try {
    name = parseName(rawName, 'Name');
  } catch (error) {
    throw new Route53Fault(400, 'InvalidDomainName', (error as Error).message);
  }
  if (state.zones.some((zone) => zone.caller_reference === callerReference)) {
    throw new Route53Fault(409, 'HostedZoneAlreadyExists', `A hosted zone has already been created with the specified caller reference.`);
  }
  const zone: HostedZone = {
    id: newZoneId(),
    name,
    caller_reference: callerReference,
    comment,
    private_zone: privateZone,
    created_at: new Date().toISOString(),
  };
  state.zones.push(zone);
  state.saveZones();
  return zone;
}

/** The zone of `id`; 404 NoSuchHostedZone when there is none. */
export function zoneById(state: Route53State, id: string): HostedZone {
  const zone = state.zones.find((z) => z.id === bareZoneId(id));
  if (!zone) throw new Route53Fault(404, 'NoSuchHostedZone', `No hosted zone found with ID: ${id}`);
  return zone;
}
