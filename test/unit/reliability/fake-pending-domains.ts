/**
 * An in-memory stand-in for the domains store's parts the reconciler's DOMAIN entries use, with the
 * store's conditions and due-index bookkeeping (shared/adapters/store/domains/checks.ts): a check recorded with the
 * provider pending puts the domain in the index (`due`), any other check takes it out, in the same write;
 * `ifCheckedAt`, postpone and clear hold only while `last_checked_at` is the one read.
 */
import type { Domain, DnsRecord, ProviderVerification } from '#shared/domain/domains/domain';
import type { ProviderDomainState } from '#shared/domain/domains/provider-verification';
import type { ProviderPendingDeps } from '#shared/usecases/domains/reconcile-provider-pending';

export const RECHECK = { providerRecheckMs: 2 * 60_000, providerRecheckLateMs: 15 * 60_000 };

const record = (purpose: DnsRecord['purpose'], required = true): DnsRecord => ({
  purpose,
  type: 'TXT',
  name: `${purpose}.example.test`,
  value: 'v',
  required,
  status: 'verified',
});

/** A domain whose DNS checked out at `checkedAt` while SES was still verifying it. */
export function pendingDomain(id: string, checkedAt: string): Domain {
  return {
    id,
    account_id: 'acc_1',
    name: `${id}.example.test`,
    status: 'pending',
    tenant_id: null,
    tenant: null,
    records: [record('ownership'), record('dkim'), record('return_path'), record('spf'), record('dmarc', false)],
    dkim_selector: 's1',
    dkim_public_key: 'k',
    ownership_token: 't',
    open_tracking: false,
    click_tracking: false,
    tls_mode: 'opportunistic',
    inbound_enabled: false,
    inbound_subdomain: null,
    created_at: checkedAt,
    updated_at: checkedAt,
    verified_at: null,
    last_checked_at: checkedAt,
    provider: { status: 'pending', message: 'SES has not yet confirmed the DKIM record.', checked_at: checkedAt },
  };
}

export function fakePendingDomains(options: { now: () => number; ses: (name: string) => ProviderDomainState | Error }) {
  const byId = new Map<string, { domain: Domain; since: string | null }>();
  /** The due index: domain id -> due time (epoch ms); absent: not in it. */
  const due = new Map<string, number>();
  const sesAsked: string[] = [];
  const domains: ProviderPendingDeps['domains'] = {
    get: async (id) => {
      const stored = byId.get(id);
      return stored ? { domain: structuredClone(stored.domain), sealedPrivateKey: 'sealed', providerPendingSince: stored.since } : null;
    },
    recordCheck: async (accountId, id, check) => {
      const stored = byId.get(id);
      if (!stored || stored.domain.account_id !== accountId) return null;
      if (check.ifCheckedAt && stored.domain.last_checked_at !== check.ifCheckedAt) return null;
      write(id, check);
      return structuredClone(byId.get(id)!.domain);
    },
    postponeProviderRecheck: async (id, checkedAt, dueAtMs) => {
      if (byId.get(id)?.domain.last_checked_at !== checkedAt) return false;
      due.set(id, dueAtMs);
      return true;
    },
    clearProviderRecheck: async (id, checkedAt) => {
      if (!byId.has(id) || byId.get(id)!.domain.last_checked_at !== checkedAt) return false;
      due.delete(id);
      return true;
    },
  };
  /** recordCheck's write: the domain, and its place in the due index. */
  function write(id: string, check: { status: Domain['status']; records: DnsRecord[]; at: string; provider?: ProviderVerification }) {
    const stored = byId.get(id)!;
    Object.assign(stored.domain, {
      status: check.status,
      records: check.records,
      last_checked_at: check.at,
      updated_at: check.at,
      ...(check.provider ? { provider: check.provider } : {}),
    });
    if (check.status === 'verified') stored.domain.verified_at ??= check.at;
    if (check.provider?.status === 'pending') {
      stored.since ??= check.at;
      due.set(id, Date.parse(check.at) + RECHECK.providerRecheckMs);
    } else {
      stored.since = null;
      due.delete(id);
    }
  }
  const mailer: ProviderPendingDeps['mailer'] = {
    domainState: async (name) => {
      sesAsked.push(name);
      const answer = options.ses(name);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  /** A domain as a verify leaves it: its DNS checked out at `checkedAt`, SES pending, in the index. */
  function addPending(id: string, checkedAt: string, since: string = checkedAt) {
    const domain = pendingDomain(id, checkedAt);
    byId.set(id, { domain, since: null });
    write(id, { status: 'pending', records: domain.records, at: checkedAt, provider: domain.provider! });
    byId.get(id)!.since = since;
  }
  const healthChecks: { domainId: string; at: Date }[] = [];
  const domainHealth = { checkAt: async (domainId: string, _accountId: string, at: Date) => void healthChecks.push({ domainId, at }) };
  const deps: ProviderPendingDeps = { domains, mailer, domainHealth, clock: { now: () => new Date(options.now()) }, bounds: RECHECK };
  return { deps, due, sesAsked, addPending, healthChecks, recordCheck: domains.recordCheck, domain: (id: string) => byId.get(id)?.domain };
}
