import { BOUNCE_CATEGORIES, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import { accountStatsQuerySchema, accountStatsView } from '#shared/domain/reputation/account-stats';
import { getAccountStats } from '#shared/usecases/account/account-stats';
import type { Principal } from '#shared/usecases/access/principal';

const none = () => Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, 0])) as Record<BounceCategory, number>;
const day = (
  d: string,
  sent: number,
  bounced: number,
  complained: number,
  categories: Partial<Record<BounceCategory, number>> = {},
  tenants = { sent: 0, bounced: 0, complained: 0 },
) => ({
  day: d,
  sent,
  bounced,
  complained,
  categories: { ...none(), ...categories },
  tenants,
});

describe('the account stats view', () => {
  it('sums the days, their rates and categories, and keeps each day oldest first', () => {
    const view = accountStatsView([
      day('2026-11-23', 100, 2, 0, { invalid_address: 2 }, { sent: 10, bounced: 1, complained: 0 }),
      day('2026-11-24', 0, 0, 0),
      day('2026-11-25', 300, 6, 1, { invalid_address: 1, mailbox_full: 3, blocked_reputation: 2 }, { sent: 20, bounced: 0, complained: 1 }),
    ]);
    expect(view).toMatchObject({
      object: 'account_stats',
      days: 3,
      from: '2026-11-23T00:00:00.000Z',
      sent: 400,
      bounced: 8,
      complained: 1,
      bounce_rate: 0.02,
      complaint_rate: 0.0025,
      tenants: { sent: 30, bounced: 1, complained: 1 },
    });
    expect(view.bounce_categories).toEqual({ ...none(), invalid_address: 3, mailbox_full: 3, blocked_reputation: 2 });
    expect(view.daily.map((entry) => [entry.day, entry.sent, entry.bounce_categories.mailbox_full])).toEqual([
      ['2026-11-23', 100, 0],
      ['2026-11-24', 0, 0],
      ['2026-11-25', 300, 3],
    ]);
  });

  it('nothing sent: rates of zero, not NaN', () => {
    expect(accountStatsView([day('2026-11-25', 0, 0, 0)])).toMatchObject({ bounce_rate: 0, complaint_rate: 0 });
  });

  it('days: a whole number from 1 to 90, 30 by default', () => {
    expect(accountStatsQuerySchema.parse({})).toEqual({ days: 30 });
    expect(accountStatsQuerySchema.parse({ days: '7' })).toEqual({ days: 7 });
    for (const days of ['0', '91', '1.5', 'x']) expect(accountStatsQuerySchema.safeParse({ days }).success).toBe(false);
  });
});

describe('GET /account/stats (use case)', () => {
  const principal = (tenant: string | null): Principal => ({
    account: { id: 'acc_1' } as Principal['account'],
    credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: null },
  });

  it('reads the last `days` UTC days of the account, today included, in one read', async () => {
    const asked: string[][] = [];
    const deps = {
      clock: { now: () => new Date('2026-11-25T13:00:00.000Z') },
      accountStats: {
        readDays: async (accountId: string, days: readonly string[]) => {
          expect(accountId).toBe('acc_1');
          asked.push([...days]);
          return days.map((d) => ({
            day: d,
            all: { sent: 1, bounced: 0, complained: 0 },
            tenants: { sent: 0, bounced: 0, complained: 0 },
            categories: none(),
          }));
        },
      },
    };
    const stats = await getAccountStats(deps, principal(null), 3);
    expect(asked).toEqual([['2026-11-23', '2026-11-24', '2026-11-25']]);
    expect(stats).toMatchObject({ days: 3, sent: 3 });
  });

  it("a key limited to a tenant is refused (403): its stats are the tenant's", async () => {
    const deps = { clock: { now: () => new Date() }, accountStats: { readDays: jest.fn() } };
    await expect(getAccountStats(deps, principal('ten_1'), 7)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(deps.accountStats.readDays).not.toHaveBeenCalled();
  });
});
