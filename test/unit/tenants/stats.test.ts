/**
 * Tenant day stats: which counters a write of a tenant's email moves (stream records decoded by the
 * tenant stats' reader, then statsDelta), and the stream aggregation.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { statsDelta, statsView, emptyCounts } from '#shared/domain/tenants/stats';
import { emailStatsWrites } from '#shared/adapters/store/email-stats-changes';
import { aggregateStats } from '#shared/usecases/reputation/aggregate-stats';
import type { CounterDelta } from '#shared/domain/reputation/counters';
import { changesOf, decodeAll, inserted, modified, removed } from '../../support/stream-records';

type Image = Record<string, unknown>;
const base: Image = {
  type: 'email',
  account_id: 'acc_1',
  tenant_id: 'ten_1',
  created_at: '2026-11-22T10:00:00.000Z',
  status: 'queued',
  last_event: 'queued',
};

/** The counters the write of one stream record moves (null: none, or not a counted write). */
function deltaOf(record: DynamoDBRecord) {
  const [write, ...more] = changesOf(emailStatsWrites, record);
  expect(more).toEqual([]);
  return write ? statsDelta(write) : null;
}

describe('statsDelta', () => {
  it("counts a bounce or a delivery failure by its bounce category, once; a delay's category is not counted", () => {
    const sent = { ...base, status: 'sent', sent_at: '2026-11-23T00:00:01.000Z' };
    const delayed = { ...sent, last_event: 'delivery_delayed', bounce_category: 'mailbox_full' };
    expect(deltaOf(modified(sent, delayed))).toBeNull();
    const bounced = { ...delayed, status: 'bounced', last_event: 'bounced', bounce_category: 'blocked_reputation' };
    expect(deltaOf(modified(delayed, bounced))?.counts).toEqual({ bounced: 1, bounce_blocked_reputation: 1 });
    expect(deltaOf(modified(bounced, { ...bounced, opened_at: 'x' }))?.counts).toEqual({ opened: 1 });
    expect(deltaOf(modified(sent, { ...sent, status: 'failed', bounce_category: 'invalid_address' }))?.counts).toEqual({
      failed: 1,
      bounce_invalid_address: 1,
    });
    // A category this release does not know is not a counter.
    expect(deltaOf(modified(sent, { ...sent, status: 'bounced', bounce_category: 'made_up' }))?.counts).toEqual({ bounced: 1 });
  });

  it('counts an acceptance: total and queued, scheduled or suppressed', () => {
    expect(deltaOf(inserted(base))).toEqual({ tenantId: 'ten_1', day: '2026-11-22', counts: { total: 1, queued: 1 } });
    expect(deltaOf(inserted({ ...base, status: 'scheduled' }))?.counts).toEqual({ total: 1, scheduled: 1 });
    expect(deltaOf(inserted({ ...base, status: 'failed', suppressed_event: { reason: 'suppressed' } }))?.counts).toEqual({
      total: 1,
      suppressed: 1,
    });
  });

  it('counts each milestone a write reached, once, by the day of acceptance', () => {
    const sent = { ...base, status: 'sent', sent_at: '2026-11-23T00:00:01.000Z' };
    expect(deltaOf(modified(base, sent))).toEqual({ tenantId: 'ten_1', day: '2026-11-22', counts: { sent: 1 } });
    // The same write seen again from a later state counts nothing new.
    expect(deltaOf(modified(sent, sent))).toBeNull();
    const delivered = { ...sent, status: 'delivered', delivered_at: 'x', last_event: 'delivered' };
    expect(deltaOf(modified(sent, delivered))?.counts).toEqual({ delivered: 1 });
    expect(deltaOf(modified(delivered, { ...delivered, last_event: 'complained' }))?.counts).toEqual({ complained: 1 });
    // A complaint applied before the delivery: both counted, each once.
    const complainedFirst = { ...sent, last_event: 'complained' };
    expect(deltaOf(modified(sent, complainedFirst))?.counts).toEqual({ complained: 1 });
    expect(deltaOf(modified(complainedFirst, { ...complainedFirst, status: 'delivered', delivered_at: 'x' }))?.counts).toEqual({
      delivered: 1,
    });
    expect(deltaOf(modified(sent, { ...sent, status: 'bounced', bounced_at: 'x', last_event: 'bounced' }))?.counts).toEqual({ bounced: 1 });
    expect(deltaOf(modified(sent, { ...sent, status: 'failed', last_event: 'failed' }))?.counts).toEqual({ failed: 1 });
    // A write that moves nothing (a due-index change) is not counted.
    expect(deltaOf(modified(sent, { ...sent, GSI2SK: 'x' }))).toBeNull();
  });

  it('ignores non-tenant emails (for the tenants), other items, removals and writes without an old image', () => {
    expect(deltaOf(inserted({ ...base, tenant_id: undefined }))).toBeNull();
    expect(deltaOf(inserted({ ...base, type: 'domain' }))).toBeNull();
    expect(deltaOf(removed(base))).toBeNull();
    expect(deltaOf(modified(undefined, { ...base, sent_at: 'x' }))).toBeNull();
  });

  it('shows the spec stats object with rates over sent', () => {
    const day = { ...emptyCounts(), total: 200, sent: 200, delivered: 190, bounced: 8, complained: 1 };
    expect(statsView([day, { ...emptyCounts(), total: 0 }], 2, '2026-11-21T00:00:00.000Z')).toMatchObject({
      object: 'tenant_stats',
      days: 2,
      total: 200,
      bounced: 8,
      bounce_rate: 0.04,
      complaint_rate: 0.005,
    });
    expect(statsView([], 7, 'x')).toMatchObject({ total: 0, bounce_rate: 0, complaint_rate: 0 });
  });
});

describe('aggregateStats', () => {
  const insert = (n: number, tenant = 'ten_1') => inserted({ ...base, tenant_id: tenant }, String(n));
  const decoded = (records: DynamoDBRecord[]) => decodeAll(emailStatsWrites, records);
  const recording = (maxPerCall = 100) => {
    const calls: { deltas: CounterDelta[]; token: string }[] = [];
    return {
      calls,
      deps: {
        counters: {
          maxPerCall,
          add: async (deltas: readonly CounterDelta[], token: string) => void calls.push({ deltas: [...deltas], token }),
        },
      },
    };
  };

  it('merges a batch into one write per counter-day, with a token naming its records', async () => {
    const { calls, deps } = recording();
    const result = await aggregateStats(
      deps,
      decoded([insert(1), insert(2), insert(3, 'ten_2'), inserted({ type: 'email', created_at: base.created_at })]),
    );
    expect(result).toEqual({ done: 4, written: 2 });
    expect(calls).toHaveLength(1);
    // Acceptances move no reputation counter: only the tenants'.
    expect(calls[0]!.deltas).toEqual([
      { counter: { kind: 'tenant', tenantId: 'ten_1' }, day: '2026-11-22', counts: { total: 2, queued: 2 } },
      { counter: { kind: 'tenant', tenantId: 'ten_2' }, day: '2026-11-22', counts: { total: 1, queued: 1 } },
    ]);
    const again = recording();
    await aggregateStats(again.deps, decoded([insert(1), insert(2), insert(3, 'ten_2')]));
    expect(again.calls.map((call) => call.token)).toEqual([calls[0]!.token]);
  });

  it('counts sent, bounced and complained of every email for its account (its tenants part apart) and the deployment', async () => {
    const { calls, deps } = recording();
    const sent = { ...base, status: 'sent', sent_at: 'x' };
    const { tenant_id: _none, ...noTenant } = base;
    const mine = { ...noTenant, account_id: 'acc_2', status: 'sent', sent_at: 'x' };
    await aggregateStats(
      deps,
      decoded([
        modified(base, sent, '1'),
        modified(sent, { ...sent, status: 'bounced', last_event: 'bounced' }, '2'),
        modified({ ...noTenant, account_id: 'acc_2' }, mine, '3'),
        modified(mine, { ...mine, status: 'delivered', delivered_at: 'y', last_event: 'complained' }, '4'),
      ]),
    );
    expect(calls[0]!.deltas).toEqual(
      expect.arrayContaining([
        { counter: { kind: 'tenant', tenantId: 'ten_1' }, day: '2026-11-22', counts: { sent: 1, bounced: 1 } },
        {
          counter: { kind: 'account', accountId: 'acc_1' },
          day: '2026-11-22',
          counts: { sent: 1, bounced: 1, tenant_sent: 1, tenant_bounced: 1 },
        },
        { counter: { kind: 'account', accountId: 'acc_2' }, day: '2026-11-22', counts: { sent: 1, complained: 1 } },
        { counter: { kind: 'deployment' }, day: '2026-11-22', counts: { sent: 2, bounced: 1, complained: 1 } },
      ]),
    );
    expect(calls[0]!.deltas).toHaveLength(4);
  });

  it('splits groups at the transaction size and stops the done prefix at a failed group', async () => {
    let call = 0;
    const deps = {
      counters: {
        maxPerCall: 2,
        add: async () => {
          if (++call === 2) throw new Error('throttled');
        },
      },
    };
    const records = [insert(1, 'a'), insert(2, 'b'), insert(3, 'a'), insert(4, 'c'), insert(5, 'd')];
    const result = await aggregateStats(deps, decoded(records));
    expect(result).toMatchObject({ done: 3, written: 2, failure: expect.stringContaining('throttled') });
  });
});
