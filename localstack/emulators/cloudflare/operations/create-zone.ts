/**
 * Create Zone (POST /zones {name}; https://developers.cloudflare.com/api/resources/zones/methods/create/):
 * how tests and local users make zones; one per name (400 code 1061 for a second), 400 code 1097 for a
 * name that is not one.
 */
import { ok, type CloudflareReply } from '../envelope';
import type { CloudflareState } from '../state';
import { addZone, zoneView } from '../zones';

export function createZone(state: CloudflareState, body: Record<string, unknown>): CloudflareReply {
  return ok(zoneView(addZone(state, body.name)));
}
