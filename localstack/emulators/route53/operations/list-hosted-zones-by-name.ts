/**
 * ListHostedZonesByName (GET /2013-04-01/hostedzonesbyname;
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ListHostedZonesByName.html): every zone,
 * private ones included, in Route 53's order (reversed labels, then id), from `dnsname` (and
 * `hostedzoneid`, which needs it) on, `maxitems` at a time (at most 100); NextDNSName and
 * NextHostedZoneId name where the next page starts.
 */
import { parseName } from '../../dns/names';
import { document, hostedZoneContent, ok, type Route53Reply } from '../encode';
import { Route53Fault } from '../errors';
import { dotted, orderKey } from '../names';
import { firstPage, maxItemsOf } from '../paging';
import type { Route53State } from '../state';
import type { HostedZone } from '../types';
import { bareZoneId } from '../zones';

export function listHostedZonesByName(state: Route53State, query: URLSearchParams): Route53Reply {
  const dnsName = query.get('dnsname');
  const startId = query.get('hostedzoneid');
  const maxItems = maxItemsOf(query, 100);
  if (startId && !dnsName) throw new Route53Fault(400, 'InvalidInput', 'hostedzoneid requires dnsname.');
  const { page, next } = firstPage(zonesFrom(state.zones, startKey(dnsName), startId), maxItems);
  return ok(
    document('ListHostedZonesByNameResponse', {
      HostedZones: { HostedZone: page.map((zone) => hostedZoneContent(state, zone)) },
      ...(dnsName !== null ? { DNSName: dnsName } : {}),
      ...(startId ? { HostedZoneId: startId } : {}),
      IsTruncated: next !== undefined,
      ...(next ? { NextDNSName: dotted(next.name), NextHostedZoneId: next.id } : {}),
      MaxItems: maxItems,
    }),
  );
}

/** Where the list starts in Route 53's order: '' (the first zone) without `dnsname`; 400 InvalidDomainName when it is not a name. */
function startKey(dnsName: string | null): string {
  if (dnsName === null) return '';
  try {
    return orderKey(parseName(dnsName, 'dnsname'));
  } catch (error) {
    throw new Route53Fault(400, 'InvalidDomainName', (error as Error).message);
  }
}

/** The zones in Route 53's order from `start` on; from the zone `startId` on when it is among them (past the first). */
function zonesFrom(zones: HostedZone[], start: string, startId: string | null): HostedZone[] {
  const sorted = [...zones].sort((a, b) =>
    orderKey(a.name) === orderKey(b.name) ? a.id.localeCompare(b.id) : orderKey(a.name) < orderKey(b.name) ? -1 : 1,
  );
  const from = sorted.filter((zone) => orderKey(zone.name) >= start);
  if (!startId) return from;
  const at = from.findIndex((zone) => zone.id === bareZoneId(startId));
  return at > 0 ? from.slice(at) : from;
}
