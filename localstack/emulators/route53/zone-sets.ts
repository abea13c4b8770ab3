/**
 * A hosted zone's record sets as Route 53 lists them: the DNS emulator's sets at or below the zone's name
 * (not those inside a more specific public zone), with the NS and SOA Route 53 keeps at the apex
 * synthesised, in Route 53's order (./names.ts).
 */
import { setsOfZone } from '../dns/hosted';
import type { DnsRecordSet } from '../dns/types';
import { dotted, orderKey } from './names';
import type { Route53State } from './state';
import type { HostedZone } from './types';

/** The name servers every zone is delegated to (CreateHostedZone's DelegationSet, the apex NS). */
export const NAME_SERVERS = ['ns-1.local-route53.test', 'ns-2.local-route53.test'];

const soa = (zone: string) => `${NAME_SERVERS[0]}. hostmaster.${zone}. 1 7200 900 1209600 86400`;

/** Every set of the zone as Route 53 lists it (SOA and NS at the apex included), in Route 53's order. */
export function zoneSets(state: Route53State, zone: HostedZone): DnsRecordSet[] {
  const others = state.zones.filter((z) => z.id !== zone.id && !z.private_zone).map((z) => z.name);
  const sets = setsOfZone(state.dns, zone.name, others);
  const synthetic: { name: string; type: string; values: string[]; ttl: number }[] = [
    { name: zone.name, type: 'NS', values: NAME_SERVERS.map(dotted), ttl: 172800 },
    { name: zone.name, type: 'SOA', values: [soa(zone.name)], ttl: 900 },
  ];
  return [...(synthetic as unknown as DnsRecordSet[]), ...sets].sort((a, b) => {
    const ka = orderKey(a.name);
    const kb = orderKey(b.name);
    return ka === kb ? a.type.localeCompare(b.type) : ka < kb ? -1 : 1;
  });
}
