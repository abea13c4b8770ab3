/**
 * The send worker's DKIM keys, per sending domain: the domain's send-time facts (verified? selector, id)
 * are cached for DOMAIN_FACTS_TTL_MS, and each sealed key is opened and parsed into a KeyObject ONCE per
 * process (keyed by domain id and the sealed text, so a rotated key is a new entry). Staleness bound: a
 * domain deleted or unverified keeps signing for at most DOMAIN_FACTS_TTL_MS in a warm worker; a
 * verified domain is seen at once on a cache miss (documented in docs/architecture.md).
 */
import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { dkimKeyContext } from '../domain/domains/domain';
import type { Clock } from '../ports';
import type { SecretBox } from '../secrets/secret-box';
import type { DomainRepository } from '../store/domains';
import { BoundedMap } from '../bounded-map';

export const DOMAIN_FACTS_TTL_MS = 60_000;

/**
 * `tenantId`: the tenant owning the domain (null: account-wide); `openTracking`/`clickTracking`: the
 * domain's tracking settings and `requireTls` its tls_mode enforced (PATCH /domains/{id}); all as of the
 * cached facts.
 */
export type SigningKey =
  | { kind: 'key'; domainId: string; selector: string; key: KeyObject; tenantId: string | null; openTracking: boolean; clickTracking: boolean; requireTls: boolean }
  | { kind: 'not_verified' };

export class DkimKeys {
  private readonly facts = new BoundedMap<string, { at: number; value: Promise<SigningKey> }>(5_000);
  private readonly parsed = new BoundedMap<string, Promise<KeyObject>>(5_000);

  constructor(
    private readonly deps: { domains: Pick<DomainRepository, 'findOwned'>; secretBox: SecretBox; clock: Clock },
    private readonly ttlMs = DOMAIN_FACTS_TTL_MS,
  ) {}

  /** The key to sign mail of `accountId` from `domain`, or not_verified when the domain is gone or unverified. */
  forSender(accountId: string, domain: string): Promise<SigningKey> {
    const cacheKey = `${accountId}\u0000${domain}`;
    const now = this.deps.clock.now().getTime();
    const hit = this.facts.get(cacheKey);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = this.load(accountId, domain);
    this.facts.set(cacheKey, { at: now, value });
    value.catch(() => this.facts.delete(cacheKey));
    return value;
  }

  private async load(accountId: string, domain: string): Promise<SigningKey> {
    const stored = await this.deps.domains.findOwned(accountId, domain);
    if (!stored || stored.domain.status !== 'verified') return { kind: 'not_verified' };
    const id = `${stored.domain.id}\u0000${createHash('sha256').update(stored.sealedPrivateKey).digest('hex')}`;
    let key = this.parsed.get(id);
    if (!key) {
      key = this.deps.secretBox.open(stored.sealedPrivateKey, dkimKeyContext(stored.domain.id)).then((pem) => createPrivateKey(pem));
      this.parsed.set(id, key);
      key.catch(() => this.parsed.delete(id));
    }
    return {
      kind: 'key',
      domainId: stored.domain.id,
      selector: stored.domain.dkim_selector,
      key: await key,
      tenantId: stored.domain.tenant_id ?? null,
      openTracking: stored.domain.open_tracking === true,
      clickTracking: stored.domain.click_tracking === true,
      requireTls: stored.domain.tls_mode === 'enforced',
    };
  }
}
