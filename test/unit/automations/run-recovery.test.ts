/** What the reconciler does with a run past due (recoverRun): re-drive its step or wake-up, wait, or clear. */
import type { Step } from '#shared/domain/automations/automation';
import { recoverRun } from '#shared/domain/automations/run-recovery';
import type { Run } from '#shared/domain/automations/run';
import { testRun } from './fake-runs';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const bounds = { queuedRedriveAfterMs: 600_000, scheduledLateAfterMs: 300_000 };
const iso = (ms: number) => new Date(ms).toISOString();

const steps = [
  { key: 'wait', type: 'delay', duration: '1 hour' },
  { key: 'check', type: 'condition', field: 'event.name', operator: 'exists' },
] as Step[];

const run = (over: Partial<Run> = {}): Run => ({
  ...testRun(steps, { at: NOW - 3_600_000, automation: { name: 'A' }, event: { email: null } }),
  ...over,
});

describe('recoverRun', () => {
  it('a pending step: its step message again, due again one queued bound later', () => {
    const r = run({ step_index: 1 });
    expect(recoverRun(r, NOW, bounds)).toEqual({ kind: 'redrive', message: { run_id: r.id, step_index: 1 }, dueAt: NOW + 600_000 });
  });

  it('a claim whose lease is live: wait until the lease ends', () => {
    const r = run({ step_state: 'claimed', attempt: 1, lease_until: NOW + 20_000 });
    expect(recoverRun(r, NOW, bounds)).toEqual({ kind: 'wait', dueAt: NOW + 20_000 });
  });

  it('a claim whose lease ended (the attempt died): its step message again', () => {
    const r = run({ step_state: 'claimed', attempt: 2, lease_until: NOW - 1 });
    expect(recoverRun(r, NOW, bounds)).toEqual({ kind: 'redrive', message: { run_id: r.id, step_index: 0 }, dueAt: NOW + 600_000 });
    const atTheEnd = run({ step_state: 'claimed', attempt: 1, lease_until: NOW });
    expect(recoverRun(atTheEnd, NOW, bounds)).toEqual({ kind: 'redrive', message: { run_id: r.id, step_index: 0 }, dueAt: NOW + 600_000 });
  });

  it('a claim without a lease is treated as dead: its step message again', () => {
    const r = run({ step_state: 'claimed', attempt: 1, lease_until: null });
    expect(recoverRun(r, NOW, bounds)).toEqual({ kind: 'redrive', message: { run_id: r.id, step_index: 0 }, dueAt: NOW + 600_000 });
  });

  it('a wait whose time is still ahead: wait until that time plus the late bound', () => {
    const r = run({ step_state: 'waiting', attempt: 1, wake_at: iso(NOW + 60_000) });
    expect(recoverRun(r, NOW, bounds)).toEqual({ kind: 'wait', dueAt: NOW + 60_000 + 300_000 });
  });

  it('a wait whose time passed (the firing was lost): its wake message, due again one late bound later', () => {
    const r = run({ step_state: 'waiting', attempt: 1, wake_at: iso(NOW - 300_000), waiting_for: 'user.upgraded' });
    expect(recoverRun(r, NOW, bounds)).toEqual({
      kind: 'redrive',
      message: { run_id: r.id, step_index: 0, wake: true },
      dueAt: NOW + 300_000,
    });
    const exactly = run({ step_state: 'waiting', attempt: 1, wake_at: iso(NOW) });
    expect(recoverRun(exactly, NOW, bounds)).toEqual({
      kind: 'redrive',
      message: { run_id: r.id, step_index: 0, wake: true },
      dueAt: NOW + 300_000,
    });
  });

  it.each(['completed', 'failed', 'cancelled'] as const)('an ended run (%s) is cleared from the due index', (status) => {
    expect(recoverRun(run({ status, ended_at: iso(NOW) }), NOW, bounds)).toEqual({ kind: 'clear' });
    expect(recoverRun(run({ status, step_state: 'claimed', lease_until: NOW - 1 }), NOW, bounds)).toEqual({ kind: 'clear' });
  });
});
