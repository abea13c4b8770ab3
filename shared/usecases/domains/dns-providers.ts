/**
 * Stored DNS host credentials (DNS apply, docs/domains.md): `PUT /dns-providers/{provider}` seals them
 * (SecretBox, bound to the account and host) and keeps a hint; `GET /dns-providers` lists hosts and
 * hints; `DELETE` forgets them. The credentials are never returned nor logged. Managing them takes a key
 * of the whole account; applying a domain's records with them (any key that may manage the domain) is
 * shared/usecases/domains/dns-apply.ts.
 */
import type { DnsHostCredentials, DnsHostName } from '../../domain/domains/dns-apply';
import { hintOf, toPublicDnsProvider, type PublicDnsProvider } from '../../domain/domains/dns-provider';
import { NotFoundError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { SecretBox } from '../../ports/secret-box';
import type { DnsProviderRepository } from '../../adapters/store/dns-providers';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';

export interface DnsProviderDeps {
  dnsProviders: DnsProviderRepository;
  secretBox: SecretBox;
  clock: Clock;
}

/** Binds sealed credentials to their account and host: copied onto another item, they do not open. */
export const dnsProviderContext = (accountId: string, provider: DnsHostName) => ({
  purpose: 'dns_provider',
  account_id: accountId,
  provider,
});

export async function storeDnsProvider(
  deps: DnsProviderDeps,
  principal: Principal,
  credentials: DnsHostCredentials,
): Promise<PublicDnsProvider> {
  requireAccountKey(principal, 'store DNS host credentials');
  const accountId = principal.account.id;
  const sealed = await deps.secretBox.seal(JSON.stringify(credentials), dnsProviderContext(accountId, credentials.provider));
  const stored = await deps.dnsProviders.put(accountId, credentials.provider, sealed, hintOf(credentials), deps.clock.now().toISOString());
  return toPublicDnsProvider(stored);
}

export async function listDnsProviders(deps: DnsProviderDeps, principal: Principal): Promise<PublicDnsProvider[]> {
  requireAccountKey(principal, 'list DNS host credentials');
  return (await deps.dnsProviders.list(principal.account.id)).map(toPublicDnsProvider);
}

export async function deleteDnsProvider(deps: DnsProviderDeps, principal: Principal, provider: DnsHostName): Promise<void> {
  requireAccountKey(principal, 'delete DNS host credentials');
  if (!(await deps.dnsProviders.delete(principal.account.id, provider))) throw new NotFoundError('DNS provider credentials for', provider);
}

/** The account's stored credentials for `provider`, opened; null when none are stored. */
export async function storedDnsCredentials(
  deps: DnsProviderDeps,
  accountId: string,
  provider: DnsHostName,
): Promise<DnsHostCredentials | null> {
  const stored = await deps.dnsProviders.get(accountId, provider);
  if (!stored) return null;
  const opened = JSON.parse(
    await deps.secretBox.open(stored.sealed_credentials, dnsProviderContext(accountId, provider)),
  ) as DnsHostCredentials;
  return opened.provider === provider ? opened : null;
}
