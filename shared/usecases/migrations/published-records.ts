/**
 * The DNS records actually published at the hosts a domain's plan is about (ours and the provider's),
 * read once per (host, type) through the product's resolvers (the DNS emulator locally).
 */
import type { DnsRecord } from '../../domain/domains/domain';
import type { Lookup } from '../../domain/domains/evaluate';
import type { SourceDnsRecord } from '../../domain/migrations/source';
import type { DnsResolver } from '../../ports';

export type RecordType = 'TXT' | 'CNAME' | 'MX';

/** Lookups by `${type} ${host}` (host lower-case, no trailing dot). */
export type PublishedRecords = (host: string, type: RecordType) => Lookup;

export async function publishedRecords(dns: DnsResolver, required: readonly DnsRecord[], provider: readonly SourceDnsRecord[]): Promise<PublishedRecords> {
  const wanted = new Map<string, { host: string; type: RecordType }>();
  for (const record of [...required.map((r) => ({ host: r.name, type: r.type as RecordType })), ...provider]) {
    const host = record.host.toLowerCase().replace(/\.$/, '');
    wanted.set(`${record.type} ${host}`, { host, type: record.type as RecordType });
  }
  const found = new Map<string, Lookup>();
  await Promise.all(
    [...wanted].map(async ([key, { host, type }]) => {
      try {
        found.set(key, await (type === 'TXT' ? dns.txt(host) : type === 'CNAME' ? dns.cname(host) : dns.mx(host)));
      } catch (error) {
        found.set(key, { kind: 'error', message: (error as Error).message });
      }
    }),
  );
  return (host, type) => found.get(`${type} ${host.toLowerCase().replace(/\.$/, '')}`) ?? { kind: 'none' };
}
