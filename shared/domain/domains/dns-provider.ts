/**
 * A DNS host's stored credentials as the API shows them (`GET /dns-providers`, docs/domains.md): the host
 * and a hint that names the credentials without revealing them. The credentials themselves are sealed in
 * the store and never leave it in an answer.
 */
import type { DnsHostCredentials, DnsHostName } from './dns-apply';

/** What is shown of stored credentials (the store's record has the sealed credentials besides). */
export interface DnsProviderRecord {
  provider: DnsHostName;
  hint: string;
  created_at: string;
  updated_at: string;
}

export interface PublicDnsProvider extends DnsProviderRecord {
  object: 'dns_provider';
}

/** Names the credentials without revealing them: `AKIA…WXYZ` (Route 53 access key id), `…wxyz` (Cloudflare token). */
export function hintOf(credentials: DnsHostCredentials): string {
  if (credentials.provider === 'route53') {
    const id = credentials.accessKeyId;
    return id.length > 8 ? `${id.slice(0, 4)}…${id.slice(-4)}` : '…';
  }
  const token = credentials.apiToken;
  return token.length > 12 ? `…${token.slice(-4)}` : '…';
}

export function toPublicDnsProvider(record: DnsProviderRecord): PublicDnsProvider {
  return {
    object: 'dns_provider',
    provider: record.provider,
    hint: record.hint,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
