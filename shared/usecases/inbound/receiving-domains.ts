/**
 * Which account receives mail for an address: its domain must be the receive-only subdomain
 * (`inbound.<domain>`) of a verified domain added with inbound_enabled. Anything else is not ours, and
 * the MX listener refuses it at RCPT TO (no open relay).
 *
 * Two reads, each cached per process: the name's claim (which domain owns the name) for 60 s, 5 s when there is
 * none; the domain itself, with its state and routes, for a second, so a route changed, a domain deleted or
 * receiving turned off applies within a second, while the recipients of one transaction (and a burst to one
 * domain) share one read. A refusal is cached for 5 s (a domain verified a moment ago starts receiving within
 * seconds). Lookups that fail are not cached: the listener answers 451 and the sender tries again.
 */
import type { Clock } from '../../ports/clock';
import { BoundedMap } from '../../lib/bounded-map';
import { parentOfReceivingDomain, splitAddress } from '../../domain/inbound/address';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { InboundRoute } from '../../domain/domains/inbound-routes';

export interface ReceivingDomain {
  account_id: string;
  domain_id: string;
  tenant_id: string | null;
  /** The owning tenant's external_id. */
  tenant: string | null;
  /** The receiving subdomain (`inbound.example.com`). */
  name: string;
  /** Its routes, in order (shared/domain/domains/inbound-routes.ts): the MX listener refuses at RCPT TO what a `refuse` route matches. */
  routes: InboundRoute[];
}

export interface ReceivingDomainsDeps {
  domains: Pick<DomainCrud, 'claimOf' | 'get'>;
  clock: Clock;
}

/** How long a name's claim is kept: it changes only when the domain is deleted (or another takes the name after). */
const CLAIM_TTL_MS = 60_000;
/** How long the domain's answer is kept: its routes and state apply within this. */
const DOMAIN_TTL_MS = 1_000;
const NOT_FOUND_TTL_MS = 5_000;

export class ReceivingDomains {
  private readonly cache = new BoundedMap<string, { value: ReceivingDomain | null; until: number }>(10_000);
  private readonly claims = new BoundedMap<string, { value: { domain_id: string } | null; until: number }>(10_000);

  constructor(private readonly deps: ReceivingDomainsDeps) {}

  /** The receiving domain of `address`, or null when this service does not receive mail for it. */
  async forAddress(address: string): Promise<ReceivingDomain | null> {
    const domain = splitAddress(address)?.domain;
    if (!domain) return null;
    const now = this.deps.clock.now().getTime();
    const cached = this.cache.get(domain);
    if (cached && cached.until > now) return cached.value;
    const value = await this.lookup(domain, now);
    this.cache.set(domain, { value, until: now + (value ? DOMAIN_TTL_MS : NOT_FOUND_TTL_MS) });
    return value;
  }

  private async claimOf(parent: string, now: number): Promise<{ domain_id: string } | null> {
    const cached = this.claims.get(parent);
    if (cached && cached.until > now) return cached.value;
    const claim = await this.deps.domains.claimOf(parent);
    const value = claim ? { domain_id: claim.domain_id } : null;
    this.claims.set(parent, { value, until: now + (value ? CLAIM_TTL_MS : NOT_FOUND_TTL_MS) });
    return value;
  }

  private async lookup(name: string, now: number): Promise<ReceivingDomain | null> {
    const parent = parentOfReceivingDomain(name);
    if (!parent) return null;
    const claim = await this.claimOf(parent, now);
    if (!claim) return null;
    const stored = await this.deps.domains.get(claim.domain_id);
    const domain = stored?.domain;
    if (!domain?.inbound_enabled || domain.inbound_subdomain !== name || domain.status !== 'verified') return null;
    return {
      account_id: domain.account_id,
      domain_id: domain.id,
      tenant_id: domain.tenant_id,
      tenant: domain.tenant,
      name,
      routes: domain.inbound_routes ?? [],
    };
  }
}
