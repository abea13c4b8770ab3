import { counterDeltas } from '#shared/domain/reputation/counters';
import type { EmailProgress } from '#shared/domain/tenants/stats';

const sent: EmailProgress = { status: 'sent', sent: true, delivered: false, opened: false, clicked: false, suppressed: false };
const write = (tenant: string | null, after: EmailProgress) => ({
  kind: 'email_progressed' as const,
  account_id: 'acc_1',
  tenant_id: tenant,
  created_at: '2026-11-22T10:00:00.000Z',
  before: sent,
  after,
});

describe('counterDeltas: bounce categories', () => {
  it("counts a bounce's category on its account (tenants' emails included) and its tenant, never on the deployment", () => {
    const deltas = counterDeltas(write('ten_1', { ...sent, status: 'bounced', bounce_category: 'blocked_content' }));
    expect(deltas).toEqual([
      { counter: { kind: 'tenant', tenantId: 'ten_1' }, day: '2026-11-22', counts: { bounced: 1, bounce_blocked_content: 1 } },
      {
        counter: { kind: 'account', accountId: 'acc_1' },
        day: '2026-11-22',
        counts: { bounced: 1, tenant_bounced: 1, bounce_blocked_content: 1 },
      },
      { counter: { kind: 'deployment' }, day: '2026-11-22', counts: { bounced: 1 } },
    ]);
  });

  it("counts a delivery failure's category on its account alone (failed is not a reputation figure)", () => {
    expect(counterDeltas(write(null, { ...sent, status: 'failed', bounce_category: 'invalid_address' }))).toEqual([
      { counter: { kind: 'account', accountId: 'acc_1' }, day: '2026-11-22', counts: { bounce_invalid_address: 1 } },
    ]);
  });
});
