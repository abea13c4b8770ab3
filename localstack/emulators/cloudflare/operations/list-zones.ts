/**
 * List Zones (GET /zones; https://developers.cloudflare.com/api/resources/zones/methods/list/): every
 * zone, or the one whose name is `name` (any case, trailing dot or not), 50 a page by default.
 */
import { paged, type CloudflareReply } from '../envelope';
import type { CloudflareState } from '../state';
import { zoneView } from '../zones';

export function listZones(state: CloudflareState, query: URLSearchParams): CloudflareReply {
  const name = query.get('name');
  const list = state.zones.filter((zone) => name === null || zone.name === name.toLowerCase().replace(/\.$/, '')).map(zoneView);
  return paged(list, query, 50);
}
