/**
 * Zone Details (GET /zones/{zone}; https://developers.cloudflare.com/api/resources/zones/methods/get/):
 * 404 code 7003 for an id the fake has no zone of.
 */
import { ok, type CloudflareReply } from '../envelope';
import type { CloudflareState } from '../state';
import { zoneById, zoneView } from '../zones';

export function getZone(state: CloudflareState, id: string): CloudflareReply {
  return ok(zoneView(zoneById(state, id)));
}
