/** Inbound MX health: the receiving subdomain (`inbound.<domain>`) of a domain that receives must name the service's MX (INBOUND_MX_HOST). Pure. */
import type { Lookup } from '../evaluate';
import { dnsError, finding, type HealthFinding } from './finding';

const norm = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

export function evaluateInboundMxHealth(input: { subdomain: string; mxHost: string; lookup: Lookup }): HealthFinding[] {
  const { subdomain, lookup } = input;
  const record = { type: 'MX' as const, name: subdomain, value: `10 ${input.mxHost}` };
  if (lookup.kind === 'error') return [dnsError('inbound_mx', subdomain, lookup)];
  if (lookup.kind === 'none')
    return [
      finding(
        'inbound_mx_missing',
        `${subdomain} has no MX record: receiving is on, but mail sent there is not delivered to the service. Publish it.`,
        record,
      ),
    ];
  if (lookup.values.some((host) => norm(host) === norm(input.mxHost))) return [];
  return [
    finding(
      'inbound_mx_wrong',
      `The MX records of ${subdomain} point to ${lookup.values.map(norm).join(', ')}, not ${input.mxHost}: mail sent there does not reach the service. Replace them.`,
      record,
    ),
  ];
}
