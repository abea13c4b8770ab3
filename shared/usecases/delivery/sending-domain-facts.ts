/**
 * The send worker's facts of a sending domain (verified? its id, DKIM selector, owner and delivery
 * settings), cached for DOMAIN_FACTS_TTL_MS. The sealed private key is never opened here: SES signs with
 * it (BYODKIM, registered at verify), so the worker needs no KMS call to send. Staleness bound: a domain
 * deleted or unverified keeps sending for at most DOMAIN_FACTS_TTL_MS in a warm worker; a verified domain
 * is seen at once on a cache miss (documented in docs/architecture.md).
 */
import type { Clock } from '../../ports/clock';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import { BoundedMap } from '../../lib/bounded-map';

export const DOMAIN_FACTS_TTL_MS = 60_000;

/**
 * `tenantId`: the tenant owning the domain (null: account-wide); `openTracking`/`clickTracking`: the
 * domain's tracking settings and `requireTls` its tls_mode enforced (PATCH /domains/{id}); all as of the
 * cached facts.
 */
export type SendingDomainFacts =
  | {
      kind: 'verified';
      domainId: string;
      selector: string;
      tenantId: string | null;
      openTracking: boolean;
      clickTracking: boolean;
      requireTls: boolean;
      /** The domain's active link domain (`links.<domain>`, docs/tracking.md "Link domains"); null: LINKS_BASE_URL. */
      linkHost: string | null;
    }
  | { kind: 'not_verified' };

export class SendingDomainFactsCache {
  private readonly facts = new BoundedMap<string, { at: number; value: Promise<SendingDomainFacts> }>(5_000);

  constructor(
    private readonly deps: { domains: Pick<DomainCrud, 'findOwned'>; clock: Clock },
    private readonly ttlMs = DOMAIN_FACTS_TTL_MS,
  ) {}

  /** The facts of `domain` for mail of `accountId`, or not_verified when the domain is gone or unverified. */
  of(accountId: string, domain: string): Promise<SendingDomainFacts> {
    const cacheKey = `${accountId}\u0000${domain}`;
    const now = this.deps.clock.now().getTime();
    const hit = this.facts.get(cacheKey);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = this.load(accountId, domain);
    this.facts.set(cacheKey, { at: now, value });
    value.catch(() => this.facts.delete(cacheKey));
    return value;
  }

  private async load(accountId: string, domain: string): Promise<SendingDomainFacts> {
    const stored = await this.deps.domains.findOwned(accountId, domain);
    if (stored?.domain.status !== 'verified') return { kind: 'not_verified' };
    return {
      kind: 'verified',
      domainId: stored.domain.id,
      selector: stored.domain.dkim_selector,
      tenantId: stored.domain.tenant_id ?? null,
      openTracking: stored.domain.open_tracking === true,
      clickTracking: stored.domain.click_tracking === true,
      requireTls: stored.domain.tls_mode === 'enforced',
      linkHost: stored.domain.link_host ?? null,
    };
  }
}
