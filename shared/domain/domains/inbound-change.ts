/**
 * `PATCH /domains/{id} {"inbound_enabled": true | false}`: what turning receiving on or off writes. Pure.
 *
 *   enable   inbound_enabled true, inbound_subdomain `inbound.<domain>`, the MX record appended to the
 *            domain's records (pending until a verify finds it; reported, not required: the domain's
 *            status does not change)
 *   disable  inbound_enabled false, inbound_subdomain null, the MX record removed from the records
 *   keep     already as asked: nothing changes (the write is still conditional on it, so the answer is
 *            never a state another request has just changed)
 *
 * Each write is conditional on the state this plan was made from (shared/adapters/store/domains/inbound-write.ts), so two
 * requests racing, or a verify writing the records it checked meanwhile, cannot leave a domain with a
 * flag and records that disagree.
 */
import type { DnsRecord, Domain } from './domain';
import { inboundMxRecord, inboundSubdomainOf, type DnsSettings } from './records';

export type InboundChange =
  | { kind: 'keep'; enabled: boolean }
  | { kind: 'enable'; subdomain: string; record: DnsRecord }
  | { kind: 'disable'; recordIndex: number | null };

export function planInboundChange(
  domain: Pick<Domain, 'name' | 'inbound_enabled' | 'records'>,
  enabled: boolean,
  settings: Pick<DnsSettings, 'inboundMxHost'>,
): InboundChange {
  // A domain stored before inbound existed has no flag: off.
  if (Boolean(domain.inbound_enabled) === enabled) return { kind: 'keep', enabled };
  if (enabled) {
    const subdomain = inboundSubdomainOf(domain.name);
    return { kind: 'enable', subdomain, record: inboundMxRecord(subdomain, settings) };
  }
  const index = domain.records.findIndex((record) => record.purpose === 'inbound_mx');
  return { kind: 'disable', recordIndex: index >= 0 ? index : null };
}
