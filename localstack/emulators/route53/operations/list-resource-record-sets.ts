/**
 * ListResourceRecordSets (GET /2013-04-01/hostedzone/{Id}/rrset;
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_ListResourceRecordSets.html): the zone's
 * record sets, SOA and NS synthesised, in Route 53's order from `name` (and `type`, which needs it) on,
 * `maxitems` at a time (at most 300); NextRecordName and NextRecordType name where the next page starts.
 */
import type { DnsRecordSet } from '../../dns/types';
import { document, ok, recordSetContent, type Route53Reply } from '../encode';
import { Route53Fault } from '../errors';
import { dotted, orderKey } from '../names';
import { firstPage, maxItemsOf } from '../paging';
import type { Route53State } from '../state';
import type { HostedZone } from '../types';
import { zoneSets } from '../zone-sets';

export function listResourceRecordSets(state: Route53State, zone: HostedZone, query: URLSearchParams): Route53Reply {
  const startName = query.get('name');
  const startType = query.get('type');
  if (startType && !startName) throw new Route53Fault(400, 'InvalidInput', 'The type parameter requires the name parameter.');
  const maxItems = maxItemsOf(query, 300);
  const { page, next } = firstPage(setsFrom(zoneSets(state, zone), startName, startType), maxItems);
  return ok(
    document('ListResourceRecordSetsResponse', {
      ResourceRecordSets: { ResourceRecordSet: page.map(recordSetContent) },
      IsTruncated: next !== undefined,
      ...(next ? { NextRecordName: dotted(next.name), NextRecordType: next.type } : {}),
      MaxItems: maxItems,
    }),
  );
}

/** The sets (in Route 53's order) from the name `startName` on, at that name from the type `startType` on. */
function setsFrom(sets: DnsRecordSet[], startName: string | null, startType: string | null): DnsRecordSet[] {
  if (!startName) return sets;
  const key = orderKey(startName);
  return sets.filter((set) => {
    const k = orderKey(set.name);
    return k > key || (k === key && (!startType || set.type >= startType));
  });
}
