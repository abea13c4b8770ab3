/** In-memory fakes of the send core's ports: use-case tests without the local cloud. */
import type { PublishedTemplate } from '#shared/domain/templates/template';
import type { Account } from '#shared/domain/accounts/account';
import type { AcceptOutcome, AcceptRequest } from '#shared/adapters/store/emails/accept-request';
import type { EmailAcceptance } from '#shared/adapters/store/emails/accept';
import type { ApiKeyLookup } from '#shared/adapters/store/api-keys';
import type { IdempotencyRecord } from '#shared/adapters/store/idempotency';
import type { SendContext, SendContextQuery } from '#shared/adapters/store/send-context';
import type { SendDeps } from '#shared/usecases/send/send-email';
import { SendContextLoader, type SendContextLoaderPorts } from '#shared/usecases/send/send-context-loader';
import type { Tenant } from '#shared/domain/tenants/tenant';
import type { StoredTenant } from '#shared/adapters/store/tenants';
import { emptyCounts } from '#shared/domain/tenants/stats';
import type { DomainCheck } from '#shared/domain/address-validation/verdict';
import { shardCaps } from '#shared/domain/accounts/limits';

export const NOW = new Date('2026-11-22T10:00:00.000Z');
export const SANDBOX = 'sandbox.test';

export function account(overrides: Partial<Account> = {}): Account {
  return {
    id: 'acc_1',
    email: 'owner@example.com',
    plan: 'free',
    payment_method: false,
    tenants_enabled: false,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    ...overrides,
  };
}

export function keyLookup(overrides: Partial<ApiKeyLookup> = {}): ApiKeyLookup {
  return { kind: 'api_key', key_id: 'key_1', account_id: 'acc_1', scopes: ['full'], tenant: null, allowed_domains: null, ...overrides };
}

export function tenant(overrides: Partial<Tenant> = {}): Tenant {
  return {
    id: 'ten_01HZZZZZZZZZZZZZZZZZZZZZZA',
    account_id: 'acc_1',
    external_id: 'acme',
    name: 'acme',
    status: 'active',
    paused_reason: null,
    paused_at: null,
    pause_source: null,
    default_from_domain: null,
    stream_policy: 'all',
    daily_limit: null,
    metadata: null,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    ...overrides,
  } as Tenant;
}

/** A tenant as the store returns it. */
export function storedTenant(t: Tenant, deleting = false): StoredTenant {
  return { tenant: t, deleting, ramp: { stage: 1, day: t.created_at.slice(0, 10) } } as StoredTenant;
}

export interface World {
  /** Tenants by id (any account). */
  tenants: Map<string, StoredTenant>;
  /** Suppressed addresses of each tenant's list, by tenant id. */
  tenantSuppressed: Map<string, Set<string>>;
  /** Calls of tenants.find (the lookup outside the context read). */
  tenantLookups: string[];
  keys: Map<string, ApiKeyLookup>;
  accounts: Map<string, Account>;
  domains: Map<string, { id: string; account_id: string; status: 'verified' | 'pending' | undefined; tenant_id?: string | null }>;
  suppressed: Set<string>;
  optedOut: Set<string>;
  idempotency: Map<string, IdempotencyRecord>;
  accepted: AcceptRequest[];
  /** The size of each group of requests accepted together (emails.acceptTogether: a batch's items). */
  acceptedTogether: number[];
  created: string[];
  contextReads: SendContextQuery[];
  /** What accept answers (default: accepted). */
  acceptOutcome?: (request: AcceptRequest) => AcceptOutcome;
  schedulerDown?: boolean;
  /** Schedules created and removed (email ids). */
  scheduled: string[];
  unscheduled: string[];
  /** Internals written with created (refused) emails, by id. */
  createdInternals: Map<string, unknown>;
  /** Templates by alias: published, or 'draft' (never published). */
  templates: Map<string, PublishedTemplate | 'draft'>;
  templateReads: string[];
  /** Domain items by id (claims written before they carried the status are completed from them). */
  domainItems: Map<string, { id: string; account_id: string; status: 'verified' | 'pending' }>;
  /** Calls of domains.get (a legacy claim's completion). */
  domainReads: string[];
  /** Calls of apiKeys.findByHash (the first request of a key in a process). */
  keyLookups: string[];
  /** What DNS answers about each domain's mail hosts (absent: an MX `mx.<domain>`). */
  mailHosts: Map<string, DomainCheck>;
  /** Domains whose mail hosts were looked up (the send's `validate: true`). */
  mailHostLookups: string[];
  /** Capped counters' shard counts, by `<scope>/<period>` (absent: all shards empty). */
  shardCounts: Map<string, number[]>;
  /** Reads of capped counters' shards (`<scope>/<period>`): the early refusal of a validated send. */
  shardReads: string[];
  /** Addresses counted against the validation allowance, per hit. */
  allowanceHits: number[];
  /** The validation allowance left this hour (default: plenty). */
  allowanceLeft: number;
}

/** In-memory fakes of the send-context loader's ports, over a world. */
export function fakeLoaderPorts(w: World): SendContextLoaderPorts {
  return {
    tenants: {
      find: async (accountId, ref) => {
        w.tenantLookups.push(ref);
        return (
          [...w.tenants.values()].find((s) => s.tenant.account_id === accountId && (s.tenant.external_id === ref || s.tenant.id === ref)) ??
          null
        );
      },
    },
    publishedTemplates: {
      getPublished: async (_accountId, alias) => {
        w.templateReads.push(alias);
        const found = w.templates.get(alias);
        if (found === undefined) return { kind: 'not_found' };
        return found === 'draft' ? { kind: 'not_published' } : { kind: 'found', template: found };
      },
    },
    sendContext: {
      read: async (query): Promise<SendContext> => {
        w.contextReads.push(query);
        return {
          key: query.apiKeyHash ? (w.keys.get(query.apiKeyHash) ?? null) : null,
          account: query.apiKeyHash ? (w.accounts.get(query.accountId) ?? null) : null,
          domain: query.fromDomain
            ? ((d) => (d ? { tenant_id: null, ...d } : null) as SendContext['domain'])(w.domains.get(query.fromDomain))
            : null,
          // As the reader: the recipients the door cleared are not looked up (clearOfSuppressions).
          suppressed: query.recipients.filter(
            (r) =>
              !(query.clearOfSuppressions ?? []).includes(r) &&
              (w.suppressed.has(r) || (query.tenantId !== null && (w.tenantSuppressed.get(query.tenantId)?.has(r) ?? false))),
          ),
          tenants: [...w.tenants.values()].filter(
            (s) => s.tenant.account_id === query.accountId && (query.tenantExternalIds ?? []).includes(s.tenant.external_id),
          ),
          tenantAliases: [...w.tenants.values()]
            .filter((s) => (query.tenantAliasIds ?? []).includes(s.tenant.id))
            .map((s) => ({ id: s.tenant.id, account_id: s.tenant.account_id, external_id: s.tenant.external_id })),
          optedOut: query.optOutCategory ? query.recipients.filter((r) => w.optedOut.has(r)) : [],
          idempotency: query.idempotencyKey ? (w.idempotency.get(query.idempotencyKey) ?? null) : null,
        };
      },
    },
    apiKeys: {
      findByHash: async (hash) => {
        w.keyLookups.push(hash);
        return w.keys.get(hash) ?? null;
      },
    },
    domains: {
      get: async (id) => {
        w.domainReads.push(id);
        const domain = w.domainItems.get(id);
        return domain ? ({ domain } as unknown as Awaited<ReturnType<SendContextLoaderPorts['domains']['get']>>) : null;
      },
    },
    sandboxDomain: SANDBOX,
  };
}

/** An empty world (one account, acc_1), with `world` laid over it. */
export function fakeWorld(world: Partial<World> = {}): World {
  return {
    tenants: new Map(),
    tenantSuppressed: new Map(),
    tenantLookups: [],
    keys: new Map(),
    accounts: new Map([['acc_1', account()]]),
    domains: new Map(),
    suppressed: new Set(),
    optedOut: new Set(),
    idempotency: new Map(),
    accepted: [],
    acceptedTogether: [],
    created: [],
    contextReads: [],
    scheduled: [],
    unscheduled: [],
    createdInternals: new Map(),
    templates: new Map(),
    templateReads: [],
    domainItems: new Map(),
    domainReads: [],
    keyLookups: [],
    mailHosts: new Map(),
    mailHostLookups: [],
    shardCounts: new Map(),
    shardReads: [],
    allowanceHits: [],
    allowanceLeft: 1_000_000,
    ...world,
  };
}

/** The send core's ports, with the batch's accept of several emails at once (SendBatchDeps). */
export type FakeSendDeps = SendDeps & { emails: Pick<EmailAcceptance, 'accept' | 'create' | 'acceptTogether'> };

export function fakeSendDeps(world: Partial<World> = {}): { deps: FakeSendDeps; world: World } {
  const w = fakeWorld(world);
  const ports = fakeLoaderPorts(w);
  const accept = async (request: AcceptRequest): Promise<AcceptOutcome> => {
    const outcome = w.acceptOutcome?.(request) ?? { kind: 'accepted', reserved: [] };
    if (outcome.kind === 'accepted') {
      w.accepted.push(request);
      if (request.idempotency) w.idempotency.set(request.idempotency.key, request.idempotency.record);
    }
    return outcome;
  };
  const deps: FakeSendDeps = {
    // A fresh loader: empty caches, as in a new process.
    sendContextLoader: new SendContextLoader(ports),
    tenants: {
      advanceRamp: async (t, from, to) => {
        const stored = [...w.tenants.values()].find((s) => s.tenant.account_id === t.account_id && s.tenant.external_id === t.external_id);
        if (!stored || stored.ramp.day !== from.day) return false;
        stored.ramp = to;
        return true;
      },
      find: ports.tenants.find,
    },
    emails: {
      accept,
      acceptTogether: async (requests) => {
        w.acceptedTogether.push(requests.length);
        return Promise.all(requests.map(async (request) => ({ ok: true as const, outcome: await accept(request) })));
      },
      create: async (email, _body, internals) => {
        w.created.push(email.id);
        w.createdInternals.set(email.id, internals);
      },
    },
    usage: {
      current: async () => 0,
      shardCounts: async (_accountId, reservation) => {
        const key = `${reservation.scope}/${reservation.period}`;
        w.shardReads.push(key);
        return w.shardCounts.get(key) ?? shardCaps(reservation.limit!).map(() => 0);
      },
    },
    rateLimits: {
      hit: async (_accountId, _name, rule, _nowMs, count = 1) => {
        // As the store: each hit is one conditional ADD of `count`, refused whole past the allowance.
        w.allowanceHits.push(count);
        const allowed = count <= w.allowanceLeft;
        if (allowed) w.allowanceLeft -= count;
        return { allowed, limit: rule.limit, remaining: w.allowanceLeft, resetAt: 0 };
      },
    },
    mailDomains: {
      check: async (domain) => {
        w.mailHostLookups.push(domain);
        return w.mailHosts.get(domain) ?? { result: 'mx', hosts: [`mx.${domain}`] };
      },
    },
    tenantStats: { read: async (_tenantId, days) => days.map(() => emptyCounts()) },
    idempotency: { get: async (_account, key) => w.idempotency.get(key) ?? null },
    scheduler: {
      upsert: async (emailId) => {
        if (w.schedulerDown) throw new Error('scheduler down');
        w.scheduled.push(emailId);
      },
      remove: async (emailId) => void w.unscheduled.push(emailId),
    },
    blobs: { put: async () => undefined, get: async () => Buffer.alloc(0) } as unknown as SendDeps['blobs'],
    clock: { now: () => NOW },
    sandboxDomain: SANDBOX,
    dashboardUrl: 'https://dashboard.test',
  };
  return { deps, world: w };
}

/** A paying account's full key sending from its verified acme.test (the batch tests: send-batch-*.test.ts). */
export const batchPrincipal = {
  account: account({ payment_method: true }),
  credential: { kind: 'api_key' as const, id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
};

/** The send core's fakes for a batch of batchPrincipal's: acme.test verified, idempotency records stored. */
export function batchSendDeps() {
  const verified = new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'verified' as const }]]);
  const { deps, world } = fakeSendDeps({ domains: verified, accounts: new Map([['acc_1', batchPrincipal.account]]) });
  return { deps: { ...deps, idempotency: { get: deps.idempotency.get, put: async () => true } }, world };
}
