/**
 * The brake's check over in-memory fakes (shared/usecases/reputation/apply-brake.ts), the stats batch that
 * calls it, a paused account's refusal at the send core's policy, and account.paused / account.resumed from
 * the stream.
 */
import { applyReputationBrake, type BrakeDeps } from '#shared/usecases/reputation/apply-brake';
import { aggregateStats } from '#shared/usecases/reputation/aggregate-stats';
import { DEFAULT_BRAKE } from '#shared/domain/reputation/brake';
import { checkAccountMaySend } from '#shared/usecases/send/account-policy';
import { publishTenantEvents, tenantEventOf } from '#shared/usecases/tenants/publish-tenant-events';
import { emailStatsWrites } from '#shared/adapters/store/email-stats-changes';
import { statusChanges } from '#shared/adapters/store/account-status-changes';
import { emptyCounts } from '#shared/domain/tenants/stats';
import type { Account, AccountPauseFigures } from '#shared/domain/accounts/account';
import type { Figures } from '#shared/domain/reputation/figures';
import { ForbiddenError } from '#shared/domain/errors';
import { decodeAll, modified } from '../../support/stream-records';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const f = (sent: number, bounced = 0, complained = 0): Figures => ({ sent, bounced, complained });
const none = f(0);

function fakes(
  figures: { deployment: Figures; accounts?: Record<string, { all: Figures; tenants?: Figures }>; tenants?: Record<string, Figures> },
  active = new Set<string>(['acc_bad', 'acc_ok', 'ten_bad']),
) {
  const reads: string[] = [];
  const pauses: { kind: string; id: string; reason: string; figures?: AccountPauseFigures }[] = [];
  const deps: BrakeDeps = {
    settings: DEFAULT_BRAKE,
    accountStats: {
      readDeployment: async (days) => {
        reads.push(`deployment:${days.join(',')}`);
        return [figures.deployment, none];
      },
      readSplit: async (id, days) => {
        reads.push(`${id}:${days.join(',')}`);
        return [
          { all: figures.accounts?.[id]?.all ?? none, tenants: figures.accounts?.[id]?.tenants ?? none },
          { all: none, tenants: none },
        ];
      },
    },
    tenantStats: {
      read: async (id) => {
        reads.push(id);
        return [{ ...emptyCounts(), ...(figures.tenants?.[id] ?? none) }];
      },
    },
    accounts: {
      pauseAutomatically: async (id, pause) => {
        pauses.push({ kind: 'account', id, reason: pause.reason, figures: pause.figures });
        return active.delete(id);
      },
    },
    tenants: {
      pauseAutomatically: async (id, reason) => {
        pauses.push({ kind: 'tenant', id, reason });
        return active.delete(id);
      },
    },
  };
  return { deps, reads, pauses };
}

describe('applyReputationBrake', () => {
  it('reads the window of the deployment and of each candidate, pauses the offender with its figures, not the healthy one', async () => {
    const { deps, reads, pauses } = fakes({
      deployment: f(2_000, 120),
      accounts: { acc_bad: { all: f(300, 100) }, acc_ok: { all: f(1_700, 20) } },
    });
    const outcomes = await applyReputationBrake(deps, { accounts: ['acc_bad', 'acc_ok'], tenants: [] }, NOW);
    expect(reads).toEqual(
      expect.arrayContaining(['deployment:2026-11-24,2026-11-25', 'acc_bad:2026-11-24,2026-11-25', 'acc_ok:2026-11-24,2026-11-25']),
    );
    expect(outcomes).toEqual([{ kind: 'account', id: 'acc_bad', rule: 'review_rate', metric: 'bounce', paused: true }]);
    expect(pauses[0]!.figures).toEqual({
      rule: 'review_rate',
      metric: 'bounce',
      threshold: 0.05,
      window_days: 2,
      account: { sent: 300, bounced: 100, complained: 0, bounce_rate: 0.333333, complaint_rate: 0 },
      deployment: { sent: 2_000, bounced: 120, complained: 0, bounce_rate: 0.06, complaint_rate: 0 },
    });
    // A second check finds it paused already: asked again (the write's condition decides), reported as not paused now.
    const again = await applyReputationBrake(deps, { accounts: ['acc_bad'], tenants: [] }, NOW);
    expect(again).toEqual([{ kind: 'account', id: 'acc_bad', rule: 'review_rate', metric: 'bounce', paused: false }]);
  });

  it('pauses a tenant inside a healthy account as a tenant', async () => {
    const { deps, pauses } = fakes({
      deployment: f(1_500, 80),
      accounts: { acc_ok: { all: f(1_000, 70), tenants: f(150, 68) } },
      tenants: { ten_bad: f(150, 68) },
    });
    const outcomes = await applyReputationBrake(deps, { accounts: ['acc_ok'], tenants: [{ id: 'ten_bad', accountId: 'acc_ok' }] }, NOW);
    expect(outcomes).toEqual([{ kind: 'tenant', id: 'ten_bad', rule: 'deployment_brake', metric: 'bounce', paused: true }]);
    expect(pauses[0]!.reason).toContain("this tenant's own bounce rate 45.33% over 150 emails");
  });
});

describe('aggregateStats with the brake', () => {
  it('checks the accounts and tenants whose bounces or complaints the batch counted; a failed check keeps the counts', async () => {
    const base = { type: 'email', created_at: '2026-11-25T10:00:00.000Z', status: 'sent', sent_at: 'x' };
    const records = decodeAll(emailStatsWrites, [
      modified({ ...base, account_id: 'acc_bad' }, { ...base, account_id: 'acc_bad', status: 'bounced' }),
      modified(
        { ...base, account_id: 'acc_t', tenant_id: 'ten_1' },
        { ...base, account_id: 'acc_t', tenant_id: 'ten_1', status: 'delivered', delivered_at: 'y', last_event: 'complained' },
      ),
      modified({ ...base, account_id: 'acc_ok' }, { ...base, account_id: 'acc_ok', status: 'delivered', delivered_at: 'y' }),
    ]);
    const logged: string[] = [];
    const counters = { maxPerCall: 100, add: async () => undefined };
    const { deps } = fakes({ deployment: none });
    const brake = {
      ...deps,
      accountStats: {
        ...deps.accountStats,
        readDeployment: async () => {
          throw new Error('throttled');
        },
      },
      clock: { now: () => NOW },
      log: (message: string) => void logged.push(message),
    };
    const result = await aggregateStats({ counters, brake }, records);
    expect(result).toMatchObject({ done: 3 });
    expect(result.braked).toBeUndefined();
    expect(logged).toEqual(['stats: reputation brake check failed']);
  });
});

describe('a paused account may not send', () => {
  const account: Account = {
    id: 'acc_1',
    email: 'o@x.test',
    plan: 'pro',
    payment_method: true,
    tenants_enabled: false,
    created_at: 'x',
    updated_at: 'x',
  };

  it('refuses with 403 account_paused naming the reason and the figures; an active account (or one of before) passes', () => {
    expect(() => checkAccountMaySend(account)).not.toThrow();
    expect(() => checkAccountMaySend({ ...account, status: 'active' })).not.toThrow();
    const paused = {
      ...account,
      status: 'paused' as const,
      paused_reason: 'Reputation brake: ...',
      paused_at: '2026-11-25T12:00:00.000Z',
      pause_source: 'automated' as const,
    };
    let error: unknown;
    try {
      checkAccountMaySend(paused);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      status: 403,
      code: 'account_paused',
      details: { account_id: 'acc_1', status: 'paused', paused_reason: 'Reputation brake: ...', pause_source: 'automated' },
    });
    expect((error as Error).message).toContain('Reputation brake: ...');
  });
});

describe('account events', () => {
  const account = {
    PK: 'ACCOUNT#acc_1',
    SK: 'ACCOUNT',
    type: 'account',
    id: 'acc_1',
    email: 'o@x.test',
    plan: 'pro',
    payment_method: true,
    tenants_enabled: false,
    created_at: 'x',
    updated_at: '2026-11-25T11:00:00.000Z',
  };
  const paused = {
    ...account,
    status: 'paused',
    paused_reason: 'r',
    paused_at: '2026-11-25T12:00:00.000Z',
    pause_source: 'manual',
    pause_figures: null,
    updated_at: '2026-11-25T12:00:00.000Z',
  };

  it('account.paused and account.resumed from the status moves, ids that survive a retry', async () => {
    const records = decodeAll(statusChanges, [
      modified(account, paused),
      modified(paused, { ...account, status: 'active', updated_at: '2026-11-25T13:00:00.000Z' }),
    ]);
    const published: { type: string; id: string; account_id: string; data: Record<string, unknown> }[] = [];
    await publishTenantEvents({ events: { publish: async (events) => void published.push(...(events as never[])) } }, records);
    expect(published.map((event) => event.type)).toEqual(['account.paused', 'account.resumed']);
    expect(published[0]).toMatchObject({
      account_id: 'acc_1',
      data: { account_id: 'acc_1', status: 'paused', paused_reason: 'r', pause_source: 'manual', changed_at: '2026-11-25T12:00:00.000Z' },
    });
    expect(published[1]!.data).toMatchObject({ status: 'active', paused_reason: null });
    expect(tenantEventOf(records[0]!.changes[0]!).id).toBe(published[0]!.id);
  });
});
