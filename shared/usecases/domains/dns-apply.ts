/**
 * DNS apply: `POST /domains/{id} {action: "apply", provider, credentials?}` writes the domain's records
 * at its DNS host, then verifies (docs/domains.md, "DNS apply").
 *
 *   1. the domain (404 unless the key may manage it);
 *   2. credentials: the request's (this request only), else those stored for the account, else (Route 53)
 *      the service's own AWS credentials;
 *   3. the zone: the longest zone at the host that is the domain or a parent of it (422 with the names
 *      tried when there is none);
 *   4. read what the host has at each of our (name, type) pairs, plan (SPF merged, other values kept,
 *      an existing DMARC policy kept: shared/domain/domains/dns-apply.ts), write the sets that change;
 *   5. Route 53: wait (bounded) for the change to be INSYNC; then the usual verification (verifyDomain).
 *
 * Failures: refused credentials 400 (`details.reason: dns_auth_failed`), credentials without the
 * permission 400 (`dns_permission_denied`), the host unreachable 502 (`dns_host_unavailable`); a record
 * the host refuses is reported `failed` on that record and the others are still written. Credentials
 * never appear in an answer, a log line or an error.
 */
import {
  DNS_HOST_LABELS,
  planApply,
  setKey,
  type ApplyRecordResult,
  type DnsHostCredentials,
  type DnsHostName,
  type DnsHostRequest,
  type DnsZone,
} from '../../domain/domains/dns-apply';
import { DnsHostError, type DnsHost } from '../../ports/dns-host';
import type { Domain } from '../../domain/domains/domain';
import type { ApplyDnsInput } from '../../domain/domains/schemas';
import { AppError, UpstreamError, ValidationError } from '../../domain/errors';
import type { DomainDeps } from './deps';
import { getDomain } from './manage';
import { verifyDomain } from './verify';
import { storedDnsCredentials, type DnsProviderDeps } from './dns-providers';
import type { Principal } from '../access/principal';

export interface DnsApplyDeps extends DomainDeps, DnsProviderDeps {
  /** The adapter for a host and its credentials (shared/adapters/dns-hosts). */
  dnsHost: (request: DnsHostRequest) => DnsHost;
}

export interface ApplyReport {
  provider: DnsHostName;
  zone: DnsZone;
  /** Where the credentials came from. */
  credentials: 'request' | 'stored' | 'service';
  /** Route 53: whether the change was INSYNC before verifying (null: nothing was written, or the host does not say). */
  settled: boolean | null;
  records: ApplyRecordResult[];
}

export interface ApplyOutcome {
  domain: Domain;
  apply: ApplyReport;
}

export async function applyDomainDns(
  deps: DnsApplyDeps,
  principal: Principal,
  domainId: string,
  input: ApplyDnsInput,
): Promise<ApplyOutcome> {
  const domain = await getDomain(deps, principal, domainId);
  const { request, source } = await hostRequestFor(deps, principal.account.id, input.provider, input.credentials);
  const host = deps.dnsHost(request);
  let written: Awaited<ReturnType<typeof writeDomainRecords>>;
  try {
    written = await writeDomainRecords(host, domain);
  } finally {
    host.close?.();
  }
  const apply: ApplyReport = { provider: input.provider, credentials: source, ...written };
  try {
    return { domain: await verifyDomain(deps, principal, domainId), apply };
  } catch (error) {
    // The records are written: say so with the verification's own error (e.g. 502 from the mail provider).
    if (error instanceof AppError) {
      throw new AppError(error.status, error.code, error.message, { details: { ...error.details, apply }, hint: error.hint, cause: error });
    }
    throw error;
  }
}

/**
 * Steps 3 and 4 through the port: the zone, what is there, the plan, the writes (a set the host refuses
 * is that record's `failed`), and, when anything was written, the wait for the host to serve it.
 * Host failures become the API's errors (hostErrorToAppError).
 */
export async function writeDomainRecords(
  host: DnsHost,
  domain: Pick<Domain, 'name' | 'records'>,
): Promise<Pick<ApplyReport, 'zone' | 'settled' | 'records'>> {
  const label = DNS_HOST_LABELS[host.provider];
  let wrote = false;
  try {
    const found = await host.findZone(domain.name);
    if (!found.zone) {
      throw new AppError(
        422,
        'validation_error',
        `${label} has no zone for ${domain.name} that these credentials can see (tried ${found.tried.join(', ')}).`,
        {
          details: { reason: 'dns_zone_not_found', provider: host.provider, tried: found.tried },
          hint: `Create a hosted zone for ${domain.name} (or a parent domain) at ${label}, or check that the credentials may see it; or publish domain.records by hand and verify.`,
        },
      );
    }
    const zone = found.zone;
    const published = new Map<string, string[]>();
    for (const record of domain.records) published.set(setKey(record.name, record.type), await host.read(zone, record.name, record.type));
    const planned = planApply(domain.records, published);
    const writes = planned.filter((entry) => entry.write !== null);
    wrote = writes.length > 0;
    const outcomes = await host.write(
      zone,
      writes.map((entry) => entry.write!),
    );
    writes.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome && !outcome.ok) entry.result = { ...entry.result, action: 'failed', message: outcome.message };
    });
    let settled: boolean | null = null;
    if (writes.some((_, index) => outcomes[index]?.ok) && host.settle) {
      // The records are written: not hearing that they are served (GetChange refused, an outage) is no failure of apply.
      settled = await host.settle().catch(() => false);
    }
    return { zone, settled, records: planned.map((entry) => entry.result) };
  } catch (error) {
    if (error instanceof DnsHostError) throw hostErrorToAppError(error, host.provider, wrote);
    throw error;
  }
}

/** The host and its credentials: the request's (this request only), else the account's stored ones, else (Route 53) the service's own. */
async function hostRequestFor(
  deps: DnsApplyDeps,
  accountId: string,
  provider: DnsHostName,
  given: DnsHostCredentials | null,
): Promise<{ request: DnsHostRequest; source: ApplyReport['credentials'] }> {
  const credentials = given ?? (await storedDnsCredentials(deps, accountId, provider));
  const source = given ? 'request' : credentials ? 'stored' : 'service';
  // Given and stored credentials are always the provider's own (the schema builds them so; storedDnsCredentials checks).
  if (provider === 'route53')
    return { request: { provider, credentials: credentials?.provider === 'route53' ? credentials : null }, source };
  if (credentials?.provider === 'cloudflare') return { request: { provider, credentials }, source };
  throw new ValidationError('Cloudflare needs an API token: send credentials.api_token, or store one with PUT /dns-providers/cloudflare.', {
    details: { fields: [{ field: 'credentials.api_token', message: 'required for cloudflare (none stored for this account)' }] },
  });
}

function hostErrorToAppError(error: DnsHostError, provider: DnsHostName, wrote: boolean): AppError {
  const label = DNS_HOST_LABELS[provider];
  const { failure } = error;
  const partly = wrote ? ' Some records may have been written: apply again once it is fixed (apply changes only what differs).' : '';
  if (failure.kind === 'auth') {
    return new ValidationError(`${label} rejected the credentials: ${failure.message}${partly}`, {
      details: { reason: 'dns_auth_failed', provider },
      hint:
        provider === 'route53'
          ? 'Send valid AWS credentials (access_key_id, secret_access_key) or store them with PUT /dns-providers/route53.'
          : 'Send a valid API token (credentials.api_token) with Zone:Read and DNS:Edit on the zone.',
    });
  }
  if (failure.kind === 'not_permitted') {
    return new ValidationError(`${label} accepted the credentials but they may not do this: ${failure.message}${partly}`, {
      details: { reason: 'dns_permission_denied', provider },
    });
  }
  return new UpstreamError(`${label} could not be reached: ${failure.message}${partly} Try again in a moment.`, {
    details: { reason: 'dns_host_unavailable', provider },
  });
}
