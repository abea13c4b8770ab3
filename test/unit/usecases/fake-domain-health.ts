/** An in-memory DomainHealthRepository: the same versions and conditions as the table's (shared/adapters/store/domain-health.ts). */
import type { StoredLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import type { Lookup } from '#shared/domain/domains/evaluate';
import type { HealthSummary } from '#shared/domain/domains/health';
import { BOUNCE_CATEGORIES, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import { emptyCounts } from '#shared/domain/tenants/stats';
import type { StoredHealth } from '#shared/domain/domains/health/history';
import type { DomainHealthRepository, SaveHealthRequest } from '#shared/adapters/store/domain-health';

/** Each check's outcome for a domain whose records are all as recommended: no receiving, too few emails for reputation, no link domain. */
export const HEALTHY_CHECKS: HealthSummary['checks'] = {
  spf: 'ok',
  dkim: 'ok',
  dmarc: 'ok',
  inbound_mx: 'skipped',
  mta_sts: 'ok',
  tls_rpt: 'ok',
  bimi: 'ok',
  reputation: 'skipped',
  link_domain: 'skipped',
};

type Stored = { health: StoredHealth | null; accountId: string; nextCheckAt: Date };

export class InMemoryDomainHealth implements Pick<DomainHealthRepository, 'get' | 'save' | 'checkAt' | 'pastDue' | 'remove'> {
  readonly items = new Map<string, Stored>();
  /** Saves refused by the condition. */
  conflicts = 0;
  /** Runs before the next save's condition is evaluated (a concurrent check saving first). */
  beforeSave: ((request: SaveHealthRequest) => void) | null = null;

  async get(domainId: string) {
    const item = this.items.get(domainId);
    if (!item?.health) return null;
    return { ...structuredClone(item.health), next_check_at: item.nextCheckAt.toISOString() };
  }

  async save(request: SaveHealthRequest): Promise<'saved' | 'conflict'> {
    const hook = this.beforeSave;
    this.beforeSave = null;
    hook?.(request);
    const current = this.items.get(request.domainId)?.health?.version ?? 0;
    if (current !== request.health.version - 1) {
      this.conflicts++;
      return 'conflict';
    }
    this.items.set(request.domainId, {
      health: structuredClone(request.health),
      accountId: request.accountId,
      nextCheckAt: request.nextCheckAt,
    });
    return 'saved';
  }

  async checkAt(domainId: string, accountId: string, at: Date) {
    const item = this.items.get(domainId);
    this.items.set(domainId, { health: item?.health ?? null, accountId, nextCheckAt: at });
  }

  async pastDue(now: Date, limit: number) {
    return [...this.items.entries()]
      .filter(([, item]) => item.nextCheckAt.getTime() <= now.getTime())
      .sort(([, a], [, b]) => a.nextCheckAt.getTime() - b.nextCheckAt.getTime())
      .slice(0, limit)
      .map(([id]) => id);
  }

  async remove(domainId: string) {
    this.items.delete(domainId);
  }
}

export const txt = (...values: string[]): Lookup => ({ kind: 'found', values });

/** The DNS of `ex.com` (DKIM selector `sel`, SPF include `spf.svc.dev`) with every record as recommended: no finding. */
export const HEALTHY_ZONE: Readonly<Record<string, Lookup>> = {
  'ex.com': txt('v=spf1 include:spf.svc.dev -all'),
  'sel._domainkey.ex.com': txt('v=DKIM1; k=rsa; p=S0VZ'),
  '_dmarc.ex.com': txt('v=DMARC1; p=reject; rua=mailto:dmarc@ex.com'),
  '_mta-sts.ex.com': txt('v=STSv1; id=1'),
  '_smtp._tls.ex.com': txt('v=TLSRPTv1; rua=mailto:tls@ex.com'),
  'default._bimi.ex.com': txt('v=BIMI1; l=https://ex.com/logo.svg'),
};

/** Day counters with `figures` on the first day asked (and its blocks): the health check's reputation input. */
export function fakeStats(
  figures: { sent: number; bounced: number; complained: number; blocked_reputation?: number; blocked_content?: number } = {
    sent: 0,
    bounced: 0,
    complained: 0,
  },
) {
  const none = Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, 0])) as Record<BounceCategory, number>;
  const first = {
    sent: figures.sent,
    bounced: figures.bounced,
    complained: figures.complained,
    categories: { ...none, blocked_reputation: figures.blocked_reputation ?? 0, blocked_content: figures.blocked_content ?? 0 },
  };
  const accountDays = async (_id: string, days: readonly string[]) =>
    days.map((_, i) => (i === 0 ? first : { sent: 0, bounced: 0, complained: 0, categories: none }));
  const tenantDays = async (_id: string, days: readonly string[]) =>
    days.map((_, i) => ({
      ...emptyCounts(),
      ...(i === 0
        ? {
            sent: figures.sent,
            bounced: figures.bounced,
            complained: figures.complained,
            bounce_blocked_reputation: figures.blocked_reputation ?? 0,
            bounce_blocked_content: figures.blocked_content ?? 0,
          }
        : {}),
    }));
  return { accountStats: { read: accountDays }, tenantStats: { read: tenantDays } };
}

/** No link domain for any domain (the link_domain check skipped); `linkDomain` answers one for every host asked. */
export function fakeLinkDomains(linkDomain: { domain_id: string; status: string; message: string | null } | null = null) {
  return {
    linkDomains: {
      get: async (host: string) =>
        linkDomain ? { hosting: { ...linkDomain, host } as unknown as StoredLinkDomain, nextStepAt: null } : null,
    },
  };
}
