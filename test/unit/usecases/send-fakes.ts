/** In-memory fakes of the send core's ports: use-case tests without the local cloud. */
import type { Account } from '../../../shared/domain/accounts/account';
import type { AcceptOutcome, AcceptRequest } from '../../../shared/store/emails';
import type { ApiKeyLookup } from '../../../shared/store/api-keys';
import type { IdempotencyRecord } from '../../../shared/store/idempotency';
import type { SendContext, SendContextQuery } from '../../../shared/store/send-context';
import type { SendDeps } from '../../../shared/usecases/send/accept';
import type { ServiceEvent } from '../../../shared/domain/webhooks/event';

export const NOW = new Date('2026-11-22T10:00:00.000Z');
export const SANDBOX = 'sandbox.test';

export function account(overrides: Partial<Account> = {}): Account {
  return { id: 'acc_1', email: 'owner@example.com', plan: 'free', payment_method: false, tenants_enabled: false, created_at: NOW.toISOString(), updated_at: NOW.toISOString(), ...overrides };
}

export function keyLookup(overrides: Partial<ApiKeyLookup> = {}): ApiKeyLookup {
  return { key_id: 'key_1', account_id: 'acc_1', scopes: ['full'], tenant: null, allowed_domains: null, ...overrides };
}

export interface World {
  keys: Map<string, ApiKeyLookup>;
  accounts: Map<string, Account>;
  domains: Map<string, { id: string; account_id: string; status: 'verified' | 'pending' | undefined; tenant_id?: string | null }>;
  suppressed: Set<string>;
  optedOut: Set<string>;
  idempotency: Map<string, IdempotencyRecord>;
  accepted: AcceptRequest[];
  created: string[];
  events: ServiceEvent[];
  contextReads: SendContextQuery[];
  /** What accept answers (default: accepted). */
  acceptOutcome?: (request: AcceptRequest) => AcceptOutcome;
  schedulerDown?: boolean;
  /** Schedules created and removed (email ids). */
  scheduled: string[];
  unscheduled: string[];
  /** Internals written with created (refused) emails, by id. */
  createdInternals: Map<string, unknown>;
}

export function fakeSendDeps(world: Partial<World> = {}): { deps: SendDeps; world: World } {
  const w: World = {
    keys: new Map(),
    accounts: new Map([['acc_1', account()]]),
    domains: new Map(),
    suppressed: new Set(),
    optedOut: new Set(),
    idempotency: new Map(),
    accepted: [],
    created: [],
    events: [],
    contextReads: [],
    scheduled: [],
    unscheduled: [],
    createdInternals: new Map(),
    ...world,
  };
  const deps: SendDeps = {
    tenants: { find: async () => null },
    sendContext: {
      read: async (query): Promise<SendContext> => {
        w.contextReads.push(query);
        return {
          key: query.apiKeyHash ? (w.keys.get(query.apiKeyHash) ?? null) : null,
          account: query.apiKeyHash ? (w.accounts.get(query.accountId) ?? null) : null,
          domain: query.fromDomain ? ((d) => (d ? { tenant_id: null, ...d } : null) as SendContext['domain'])(w.domains.get(query.fromDomain)) : null,
          suppressed: query.recipients.filter((r) => w.suppressed.has(r)),
          optedOut: query.optOutCategory ? query.recipients.filter((r) => w.optedOut.has(r)) : [],
          idempotency: query.idempotencyKey ? (w.idempotency.get(query.idempotencyKey) ?? null) : null,
        };
      },
    },
    emails: {
      accept: async (request) => {
        const outcome = w.acceptOutcome?.(request) ?? { kind: 'accepted', reserved: [] };
        if (outcome.kind === 'accepted') {
          w.accepted.push(request);
          if (request.idempotency) w.idempotency.set(request.idempotency.key, request.idempotency.record);
        }
        return outcome;
      },
      create: async (email, _body, internals) => {
        w.created.push(email.id);
        w.createdInternals.set(email.id, internals);
      },
    },
    apiKeys: { findByHash: async (hash) => w.keys.get(hash) ?? null },
    domains: { get: async () => null },
    usage: { release: () => [] },
    idempotency: { get: async (_account, key) => w.idempotency.get(key) ?? null, deleteItem: (_a, key) => ({ Delete: { TableName: 't', Key: { key } } }) as never },
    scheduler: {
      upsert: async (emailId) => {
        if (w.schedulerDown) throw new Error('scheduler down');
        w.scheduled.push(emailId);
      },
      remove: async (emailId) => void w.unscheduled.push(emailId),
    },
    events: { publish: async (events) => void w.events.push(...events) },
    blobs: { put: async () => undefined, get: async () => Buffer.alloc(0) } as unknown as SendDeps['blobs'],
    clock: { now: () => NOW },
    sandboxDomain: SANDBOX,
    dashboardUrl: 'https://dashboard.test',
  };
  return { deps, world: w };
}
