/**
 * The reconciler's DOMAIN entries (shared/usecases/domains/reconcile-provider-pending.ts) with an in-memory store
 * that keeps the real store's conditions (./fake-pending-domains.ts): a domain SES verifies after its DNS
 * check is completed with no GET or verify, asked again with the backoff while SES still verifies it,
 * dropped after SES's 72 hours, and never written over a check recorded meanwhile.
 */
import { PROVIDER_VERIFICATION_WINDOW_MS } from '#shared/domain/domains/provider-recheck';
import type { ProviderDomainState } from '#shared/domain/domains/provider-verification';
import { reconcileProviderPending } from '#shared/usecases/domains/reconcile-provider-pending';
import { fakePendingDomains, RECHECK } from './fake-pending-domains';

const T0 = Date.parse('2026-11-22T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;

const VERIFIED: ProviderDomainState = { status: 'verified', detail: 'SES can send from the domain.' };
const PENDING: ProviderDomainState = { status: 'pending', detail: 'SES has not yet confirmed the DKIM record.' };
const FAILED: ProviderDomainState = { status: 'failed', detail: 'SES did not find the DKIM record in time.' };

function setup(ses: (name: string) => ProviderDomainState | Error) {
  let now = T0;
  const fake = fakePendingDomains({ now: () => now, ses });
  return {
    ...fake,
    at: (ms: number) => {
      now = ms;
    },
    pass: (id: string) => reconcileProviderPending(fake.deps, id, now),
  };
}

describe('a domain SES is still verifying, past due in the index', () => {
  it('is recorded verified once SES says so, exactly as GET does, and leaves the index', async () => {
    const s = setup(() => VERIFIED);
    s.addPending('dom_a', iso(T0));
    expect(s.due.get('dom_a')).toBe(T0 + RECHECK.providerRecheckMs);
    s.at(T0 + RECHECK.providerRecheckMs);
    expect(await s.pass('dom_a')).toBe('completed');
    expect(s.domain('dom_a')).toMatchObject({
      status: 'verified',
      verified_at: iso(T0 + RECHECK.providerRecheckMs),
      last_checked_at: iso(T0 + RECHECK.providerRecheckMs),
      provider: { status: 'verified', checked_at: iso(T0 + RECHECK.providerRecheckMs) },
    });
    expect(s.due.has('dom_a')).toBe(false);
    expect(s.sesAsked).toEqual(['dom_a.example.test']);
    // Verified now: its health is checked at once (the domain-health task's next pass).
    expect(s.healthChecks).toEqual([{ domainId: 'dom_a', at: new Date(T0 + RECHECK.providerRecheckMs) }]);
  });

  it('still pending: asked again every 2 minutes in the first hour, then every 15 minutes', async () => {
    const s = setup(() => PENDING);
    s.addPending('dom_p', iso(T0));
    s.at(T0 + 2 * MIN);
    expect(await s.pass('dom_p')).toBe('postponed');
    expect(s.due.get('dom_p')).toBe(T0 + 4 * MIN);
    s.at(T0 + 59 * MIN);
    await s.pass('dom_p');
    expect(s.due.get('dom_p')).toBe(T0 + 61 * MIN);
    s.at(T0 + HOUR);
    await s.pass('dom_p');
    expect(s.due.get('dom_p')).toBe(T0 + HOUR + 15 * MIN);
    // Nothing recorded while SES says pending: the check stays the one of the verify.
    expect(s.domain('dom_p')).toMatchObject({ status: 'pending', last_checked_at: iso(T0), provider: { status: 'pending' } });
    expect(s.sesAsked).toHaveLength(3);
    expect(s.healthChecks).toEqual([]);
  });

  it("counts the 72 hours from the first pending check, not the last (a verify again keeps SES's window)", async () => {
    const s = setup(() => PENDING);
    s.addPending('dom_w', iso(T0 + 70 * HOUR), iso(T0));
    s.at(T0 + 71 * HOUR + 50 * MIN);
    await s.pass('dom_w');
    // The last ask falls at the window's end, not 15 minutes past it.
    expect(s.due.get('dom_w')).toBe(T0 + PROVIDER_VERIFICATION_WINDOW_MS);
  });

  it('is dropped from the index once 72 hours have passed since the first pending check', async () => {
    const s = setup(() => PENDING);
    s.addPending('dom_x', iso(T0));
    s.at(T0 + PROVIDER_VERIFICATION_WINDOW_MS);
    expect(await s.pass('dom_x')).toBe('cleared');
    expect(s.due.has('dom_x')).toBe(false);
    expect(s.domain('dom_x')).toMatchObject({ status: 'pending', provider: { status: 'pending' } });
  });

  it('SES gave up: provider `failed` is recorded (verify again restarts it) and the domain leaves the index', async () => {
    const s = setup(() => FAILED);
    s.addPending('dom_f', iso(T0));
    s.at(T0 + 3 * HOUR);
    expect(await s.pass('dom_f')).toBe('cleared');
    expect(s.domain('dom_f')).toMatchObject({
      status: 'pending',
      verified_at: null,
      provider: { status: 'failed', message: expect.stringContaining('verify again') },
    });
    expect(s.due.has('dom_f')).toBe(false);
  });

  it('SES unreachable: the pass fails for this entry and it stays due as it was', async () => {
    const s = setup(() => new Error('SES throttled'));
    s.addPending('dom_u', iso(T0));
    s.at(T0 + 5 * MIN);
    await expect(s.pass('dom_u')).rejects.toThrow('SES throttled');
    expect(s.due.get('dom_u')).toBe(T0 + RECHECK.providerRecheckMs);
  });

  it('a check recorded while SES was asked wins: the reconciler does not write over it (verified answer)', async () => {
    // The customer's verify lands between the reconciler's read and its write: a DKIM record gone meanwhile.
    const s = setup(() => {
      const current = s.domain('dom_c')!;
      const broken = current.records.map((r) => (r.purpose === 'dkim' ? { ...r, status: 'not_found' as const } : r));
      void s.recordCheck('acc_1', 'dom_c', { status: 'pending', records: broken, at: iso(T0 + 3 * MIN + 1), inbound_enabled: false });
      return VERIFIED;
    });
    s.addPending('dom_c', iso(T0));
    s.at(T0 + 3 * MIN);
    expect(await s.pass('dom_c')).toBe('skipped');
    expect(s.domain('dom_c')).toMatchObject({ status: 'pending', verified_at: null, last_checked_at: iso(T0 + 3 * MIN + 1) });
    expect(s.domain('dom_c')!.records.find((r) => r.purpose === 'dkim')!.status).toBe('not_found');
    // That check (no provider) took it out of the index itself.
    expect(s.due.has('dom_c')).toBe(false);
  });

  it('a pending check recorded while SES was asked keeps the due time it wrote (no postpone over it)', async () => {
    const s = setup(() => {
      const current = s.domain('dom_r')!;
      void s.recordCheck('acc_1', 'dom_r', {
        status: 'pending',
        records: current.records,
        at: iso(T0 + 90 * MIN),
        inbound_enabled: false,
        provider: { ...current.provider!, checked_at: iso(T0 + 90 * MIN) },
      });
      return PENDING;
    });
    s.addPending('dom_r', iso(T0));
    s.at(T0 + 90 * MIN);
    expect(await s.pass('dom_r')).toBe('postponed');
    // The verify's due time (its check + 2 min), not the reconciler's late interval.
    expect(s.due.get('dom_r')).toBe(T0 + 90 * MIN + RECHECK.providerRecheckMs);
  });

  it('a domain no longer waiting for SES (verified meanwhile) but left in the index is only taken out', async () => {
    const s = setup(() => VERIFIED);
    s.addPending('dom_v', iso(T0));
    await s.recordCheck('acc_1', 'dom_v', {
      status: 'verified',
      records: s.domain('dom_v')!.records,
      at: iso(T0 + MIN),
      inbound_enabled: false,
      provider: { status: 'verified', message: 'ok', checked_at: iso(T0 + MIN) },
    });
    s.due.set('dom_v', T0 + MIN); // as if a write had left it indexed
    s.at(T0 + 2 * MIN);
    expect(await s.pass('dom_v')).toBe('cleared');
    expect(s.due.has('dom_v')).toBe(false);
    expect(s.sesAsked).toEqual([]);
  });

  it('a deleted domain is skipped', async () => {
    const s = setup(() => VERIFIED);
    expect(await s.pass('dom_gone')).toBe('skipped');
  });
});
