/**
 * The DNS records actually published at the hosts a domain's plan is about (ours and the provider's:
 * dnsQueries), read once per (host, type) through the product's resolvers (the DNS emulator locally).
 */
import type { DnsRecord } from '../../domain/domains/domain';
import type { Lookup } from '../../domain/domains/evaluate';
import type { PublishedDns } from '../../domain/domains/record-plan';
import { dnsQueries } from '../../domain/imports/dns-plan';
import type { SourceDnsRecord } from '../../domain/imports/source';
import type { DnsResolver } from '../../ports/dns';

export async function publishedRecords(
  dns: DnsResolver,
  required: readonly DnsRecord[],
  provider: readonly SourceDnsRecord[],
): Promise<PublishedDns> {
  const found = new Map<string, Lookup>();
  await Promise.all(
    dnsQueries(required, provider).map(async ({ host, type }) => {
      let lookup: Lookup;
      try {
        lookup = await (type === 'TXT' ? dns.txt(host) : type === 'CNAME' ? dns.cname(host) : dns.mx(host));
      } catch (error) {
        lookup = { kind: 'error', message: (error as Error).message };
      }
      found.set(`${type} ${host}`, lookup);
    }),
  );
  return (host, type) => found.get(`${type} ${host.toLowerCase().replace(/\.$/, '')}`) ?? { kind: 'none' };
}
