/** In-memory stand-ins for the dashboard's stores (users, sessions, rate-limit windows), a movable clock, and the refusal a promise ends in. */
import type { Account } from '#shared/domain/accounts/account';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { AppError, ConflictError } from '#shared/domain/errors';
import { windowOf, type RateLimit } from '#shared/domain/rate-limits';
import type { SessionTimes } from '#shared/domain/dashboard/session-policy';
import type { RateLimitDecision } from '#shared/adapters/store/rate-limits';
import type { StoredSession } from '#shared/adapters/store/sessions';

export const T0 = Date.parse('2026-11-23T10:00:00.000Z');

export class FakeClock {
  constructor(public ms = T0) {}
  now = () => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const account: Account = {
  id: 'acc_1',
  email: 'owner@acme.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: new Date(T0).toISOString(),
  updated_at: new Date(T0).toISOString(),
};

export class FakeUsers {
  readonly users = new Map<string, DashboardUser>();
  readonly accounts = new Map<string, Account>([[account.id, account]]);
  async create(user: DashboardUser): Promise<void> {
    if (this.users.has(user.email)) throw new ConflictError('exists');
    this.users.set(user.email, structuredClone(user));
  }
  async getByEmail(email: string): Promise<DashboardUser | null> {
    return structuredClone(this.users.get(email) ?? null);
  }
  async getWithAccount(email: string, accountId: string) {
    return { user: structuredClone(this.users.get(email) ?? null), account: structuredClone(this.accounts.get(accountId) ?? null) };
  }
  async replacePasswordHash(email: string, previous: string, next: string): Promise<boolean> {
    const user = this.users.get(email);
    if (!user || user.password_hash !== previous) return false;
    user.password_hash = next;
    return true;
  }
}

export class FakeSessions {
  readonly items = new Map<string, StoredSession>();
  touches = 0;
  async create(hash: string, session: StoredSession): Promise<void> {
    this.items.set(hash, structuredClone(session));
  }
  async get(hash: string): Promise<StoredSession | null> {
    return structuredClone(this.items.get(hash) ?? null);
  }
  async touch(hash: string, times: SessionTimes): Promise<boolean> {
    const session = this.items.get(hash);
    if (!session) return false;
    this.touches++;
    Object.assign(session, { last_seen_at: times.last_seen_at, idle_expires_at: times.idle_expires_at, ttl: times.ttl });
    return true;
  }
  async delete(hash: string): Promise<void> {
    this.items.delete(hash);
  }
}

/** The real repository's semantics: a counter per (subject, name, window), admitted while below the limit. */
export class FakeRateLimits {
  readonly counts = new Map<string, number>();
  async hit(subject: string, name: string, rule: RateLimit, nowMs: number): Promise<RateLimitDecision> {
    const window = windowOf(rule, nowMs);
    const key = `${subject}#${name}#${window.start}`;
    const count = this.counts.get(key) ?? 0;
    if (count >= rule.limit) return { allowed: false, limit: rule.limit, remaining: 0, resetAt: window.end };
    this.counts.set(key, count + 1);
    return { allowed: true, limit: rule.limit, remaining: rule.limit - count - 1, resetAt: window.end };
  }
}

/** The error `promise` is refused with, an instance of `kind` (AppError unless said); anything else fails the test. */
export async function refusal<E extends AppError = AppError>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E = AppError as never,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error(`expected a refusal (${kind.name})`);
}
