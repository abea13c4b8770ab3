/** Publishing DNS records in the local cloud's DNS emulator, as a user does at their DNS host. */
import { Resolver } from 'node:dns/promises';
import { randomUUID } from 'node:crypto';
import { api, stack } from './stack';

export async function publish(name: string, type: 'TXT' | 'CNAME' | 'MX' | 'A' | 'AAAA', values: string[]): Promise<void> {
  const response = await api('PUT', '/_local/dns/records', { body: { name, type, values } });
  if (response.status !== 200) throw new Error(`publishing ${type} ${name} failed: ${response.text}`);
}

export async function unpublish(name: string, type?: 'TXT' | 'CNAME' | 'MX'): Promise<void> {
  await api('DELETE', `/_local/dns/records?name=${encodeURIComponent(name)}${type ? `&type=${type}` : ''}`);
}

/** A resolver pointed at the local DNS emulator (what the service itself uses). */
export function localResolver(): Resolver {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([stack().info.endpoints.dns]);
  return resolver;
}

/** The questions the DNS emulator was asked for `name` and the names below it (`GET /_local/dns/queries`). */
export async function dnsQueries(name: string): Promise<{ name: string; type: string }[]> {
  const response = await api('GET', `/_local/dns/queries?name=${encodeURIComponent(name)}`);
  if (response.status !== 200) throw new Error(`reading the DNS query log failed: ${response.text}`);
  return response.body.queries;
}

export function uniqueDomain(): string {
  return `d${randomUUID().slice(0, 8)}.example-mail.test`;
}

export interface PublicRecord {
  purpose: string;
  type: 'TXT' | 'CNAME' | 'MX';
  name: string;
  value: string;
  priority?: number;
  required: boolean;
  status: string;
  found?: string[];
  message?: string;
}

/** Publishes every record a domain returned, exactly as given (MX as "priority host"). */
export async function publishAll(records: PublicRecord[], purposes?: string[]): Promise<void> {
  for (const record of records) {
    if (purposes && !purposes.includes(record.purpose)) continue;
    await publish(record.name, record.type, [record.type === 'MX' ? `${record.priority ?? 10} ${record.value}` : record.value]);
  }
}
