/** Automatic pause thresholds, the pause check after a stats batch, and tenant.paused / tenant.resumed from the stream. */
import { autoPauseReason } from '#shared/domain/tenants/auto-pause';
import { emptyCounts } from '#shared/domain/tenants/stats';
import type { CounterDelta } from '#shared/domain/reputation/counters';
import { aggregateStats } from '#shared/usecases/reputation/aggregate-stats';
import { autoPauseTenants } from '#shared/usecases/tenants/auto-pause-tenants';
import { emailStatsWrites } from '#shared/adapters/store/email-stats-changes';
import { tenantStatusChanges } from '#shared/adapters/store/tenant-status-changes';
import { publishTenantEvents, tenantEventOf } from '#shared/usecases/tenants/publish-tenant-events';
import { changesOf, decodeAll, inserted, modified } from '../../support/stream-records';

const day = (sent: number, bounced = 0, complained = 0) => ({ ...emptyCounts(), sent, bounced, complained });

describe('autoPauseReason', () => {
  it('pauses over 5% bounces from 200 sent, and over 0.1% complaints from 1,000 sent', () => {
    expect(autoPauseReason([day(100, 6), day(100, 5)])).toContain('Bounce rate 5.5% over 200 emails');
    expect(autoPauseReason([day(200, 10)])).toBeNull(); // exactly 5% is not over
    expect(autoPauseReason([day(199, 50)])).toBeNull(); // too few to judge
    expect(autoPauseReason([day(1000, 0, 2)])).toContain('Complaint rate 0.2% over 1000 emails');
    expect(autoPauseReason([day(999, 0, 5)])).toBeNull();
    expect(autoPauseReason([day(1000, 0, 1)])).toBeNull();
  });
});

describe('autoPauseTenants', () => {
  it('reads each tenant window once and pauses only those over a threshold, reporting the ones it paused', async () => {
    const reads: string[] = [];
    const pauses: [string, string][] = [];
    const paused = await autoPauseTenants(
      {
        tenantStats: {
          read: async (tenantId, days) => {
            reads.push(`${tenantId}:${days.join(',')}`);
            return tenantId === 'bad' ? [day(300, 30)] : [day(300, 1)];
          },
        },
        tenants: {
          pauseAutomatically: async (tenantId, reason) => {
            pauses.push([tenantId, reason]);
            return true;
          },
        },
      },
      ['bad', 'good', 'bad'],
      new Date('2026-11-22T12:00:00.000Z'),
    );
    expect(paused).toEqual(['bad']);
    expect(reads).toEqual(['bad:2026-11-21,2026-11-22', 'good:2026-11-21,2026-11-22']);
    expect(pauses[0]![1]).toContain('Bounce rate 10%');
  });

  it('is asked only for tenants whose bounces or complaints a batch counted, and a failed check keeps the counts', async () => {
    const base = { type: 'email', account_id: 'acc_1', created_at: '2026-11-22T10:00:00.000Z', status: 'sent', sent_at: 'x' };
    const records = decodeAll(emailStatsWrites, [
      modified({ ...base, tenant_id: 'a' }, { ...base, tenant_id: 'a', status: 'bounced', bounced_at: 'y' }),
      modified({ ...base, tenant_id: 'b' }, { ...base, tenant_id: 'b', status: 'delivered', delivered_at: 'y' }),
    ]);
    const run = async (window: ReturnType<typeof day>[]) => {
      const writes: CounterDelta[][] = [];
      const checked: string[] = [];
      const logged: string[] = [];
      const result = await aggregateStats(
        {
          counters: { maxPerCall: 100, add: async (deltas) => void writes.push([...deltas]) },
          autoPause: {
            tenantStats: {
              read: async (tenantId) => {
                checked.push(tenantId);
                return window;
              },
            },
            tenants: {
              pauseAutomatically: async () => {
                throw new Error('throttled');
              },
            },
            clock: { now: () => new Date() },
            log: (message) => void logged.push(message),
          },
        },
        records,
      );
      return { result, writes, checked, logged };
    };
    // Figures under the thresholds: only the bouncing tenant is looked at, nothing is paused.
    const fine = await run([]);
    expect(fine.result).toMatchObject({ done: 2, written: 4 });
    expect(fine.writes).toHaveLength(1);
    expect(fine.checked).toEqual(['a']);
    expect(fine.logged).toEqual([]);
    // Over them, and the pause itself fails: the counts stand, the failure is logged.
    const failing = await run([day(300, 100)]);
    expect(failing.result).toMatchObject({ done: 2, written: 4 });
    expect(failing.writes).toHaveLength(1);
    expect(failing.logged).toEqual(['stats: automatic tenant pause check failed']);
  });
});

describe('tenant events', () => {
  const tenant = {
    type: 'tenant',
    id: 'ten_1',
    account_id: 'acc_1',
    external_id: 'acme',
    name: 'Acme',
    status: 'active',
    paused_reason: null,
    paused_at: null,
    pause_source: null,
    updated_at: '2026-11-22T10:00:00.000Z',
  };
  const paused = {
    ...tenant,
    status: 'paused',
    paused_reason: 'bounces',
    paused_at: '2026-11-22T11:00:00.000Z',
    pause_source: 'automated',
    updated_at: '2026-11-22T11:00:00.000Z',
  };

  /** The events of one tenant write, as tenant events decode and publish it. */
  const eventsOf = (record: ReturnType<typeof modified>) => changesOf(tenantStatusChanges, record).map(tenantEventOf);

  it('publishes tenant.paused and tenant.resumed for status changes only, with ids that survive a retry', () => {
    const [event, ...more] = eventsOf(modified(tenant, paused));
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: 'tenant.paused', account_id: 'acc_1', tenant: null, created_at: paused.updated_at });
    expect(event!.data).toEqual({
      tenant_id: 'ten_1',
      tenant: 'acme',
      name: 'Acme',
      status: 'paused',
      paused_reason: 'bounces',
      paused_at: paused.paused_at,
      pause_source: 'automated',
      changed_at: paused.updated_at,
    });
    expect(eventsOf(modified(tenant, paused))[0]!.id).toBe(event!.id);
    expect(eventsOf(modified(paused, { ...tenant, updated_at: '2026-11-22T12:00:00.000Z' })).map((e) => e.type)).toEqual([
      'tenant.resumed',
    ]);
    expect(eventsOf(modified(tenant, { ...tenant, name: 'Renamed' }))).toEqual([]);
    expect(changesOf(tenantStatusChanges, inserted(tenant))).toEqual([]);
    expect(eventsOf(modified(tenant, { ...paused, deleting: true }))).toEqual([]);
  });

  it('ends the done prefix at the first event when publishing fails', async () => {
    const records = decodeAll(tenantStatusChanges, [modified(tenant, { ...tenant, name: 'x' }), modified(tenant, paused)]);
    const failed = await publishTenantEvents(
      {
        events: {
          publish: async () => {
            throw new Error('queue down');
          },
        },
      },
      records,
    );
    expect(failed).toMatchObject({ done: 1, published: 0 });
    expect(await publishTenantEvents({ events: { publish: async () => undefined } }, records)).toEqual({ done: 2, published: 1 });
  });
});
