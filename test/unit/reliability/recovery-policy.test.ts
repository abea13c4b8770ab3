/** The reconciler's policy per stage: pure decisions from an item's state, the time and the bounds. */
import { DEFAULT_RECOVERY_BOUNDS as B, recoveryBoundsFromEnv } from '#shared/domain/reliability/bounds';
import { recoverDelivery, recoverEmail, type EmailState } from '#shared/domain/reliability/recovery-policy';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const email = (over: Partial<EmailState>): EmailState => ({
  id: 'msg_1',
  status: 'queued',
  created_at: iso(T0),
  scheduled_at: null,
  sent_at: null,
  last_event: 'queued',
  ...over,
});

describe('recoverEmail', () => {
  it('re-drives an unclaimed queued email and looks again a bound later', () => {
    const now = T0 + B.queuedRedriveAfterMs + 1;
    expect(recoverEmail(email({}), now, B)).toEqual({
      kind: 'redrive',
      stage: 'queued',
      message: { email_id: 'msg_1' },
      status: 'queued',
      dueAt: now + B.queuedRedriveAfterMs,
    });
  });

  it('waits while an attempt holds the lease, and for the provider-event grace after it ends; then re-drives', () => {
    const lease = T0 + 45_000;
    expect(recoverEmail(email({ send_lease_until: lease }), lease - 1, B)).toEqual({
      kind: 'wait',
      status: 'queued',
      dueAt: lease + B.sendGraceMs,
    });
    expect(recoverEmail(email({ send_lease_until: lease }), lease + B.sendGraceMs - 1, B).kind).toBe('wait');
    expect(recoverEmail(email({ send_lease_until: lease }), lease + B.sendGraceMs, B).kind).toBe('redrive');
  });

  it('re-drives a scheduled email whose firing is late, with its schedule version (1 when never rescheduled)', () => {
    const at = T0 + 60_000;
    expect(recoverEmail(email({ status: 'scheduled', scheduled_at: iso(at) }), at + 1000, B)).toEqual({
      kind: 'wait',
      status: 'scheduled',
      dueAt: at + B.scheduledLateAfterMs,
    });
    const late = recoverEmail(email({ status: 'scheduled', scheduled_at: iso(at), schedule_version: 3 }), at + B.scheduledLateAfterMs, B);
    expect(late).toMatchObject({ kind: 'redrive', stage: 'scheduled', message: { email_id: 'msg_1', schedule_version: 3 } });
    expect(recoverEmail(email({ status: 'scheduled', scheduled_at: iso(at) }), at + B.scheduledLateAfterMs, B)).toMatchObject({
      message: { schedule_version: 1 },
    });
  });

  it('reports a sent email without an outcome as delayed after the first bound, then expires it after the last', () => {
    const sent = email({ status: 'sent', sent_at: iso(T0), last_event: 'sent' });
    expect(recoverEmail(sent, T0 + B.noOutcomeDelayedAfterMs - 1, B)).toEqual({
      kind: 'wait',
      status: 'sent',
      dueAt: T0 + B.noOutcomeDelayedAfterMs,
    });
    expect(recoverEmail(sent, T0 + B.noOutcomeDelayedAfterMs, B)).toEqual({ kind: 'delay', dueAt: T0 + B.noOutcomeFinalAfterMs });
    // Already reported delayed (by us or by SES): wait for the last bound, no second report.
    expect(recoverEmail({ ...sent, last_event: 'delivery_delayed' }, T0 + B.noOutcomeDelayedAfterMs, B)).toEqual({
      kind: 'wait',
      status: 'sent',
      dueAt: T0 + B.noOutcomeFinalAfterMs,
    });
    const expired = recoverEmail(sent, T0 + B.noOutcomeFinalAfterMs, B);
    expect(expired.kind).toBe('expire');
    expect(expired.kind === 'expire' && expired.reason).toContain('72 hours');
  });

  it('clears final emails from the index', () => {
    for (const status of ['delivered', 'bounced', 'failed', 'cancelled'])
      expect(recoverEmail(email({ status }), T0, B)).toEqual({ kind: 'clear' });
  });

  it('publishes email.failed again for an email it failed as undetermined that is still due (the pass may have died before publishing)', () => {
    expect(recoverEmail(email({ status: 'failed', bounce_type: 'undetermined' }), T0, B)).toEqual({ kind: 'announce' });
    expect(recoverEmail(email({ status: 'failed', bounce_type: 'suppressed' }), T0, B)).toEqual({ kind: 'clear' });
  });
});

describe('recoverDelivery', () => {
  const pending = { webhook_id: 'wh_1', id: 'whd_1', status: 'pending', attempts: [{}, {}], next_attempt_at: iso(T0) };

  it('re-drives the next unlogged attempt of a pending delivery past its bound, keeping a replay base', () => {
    expect(recoverDelivery(pending, T0 + B.webhookLateAfterMs - 1, B)).toEqual({ kind: 'wait', dueAt: T0 + B.webhookLateAfterMs });
    const now = T0 + B.webhookLateAfterMs;
    expect(recoverDelivery(pending, now, B)).toEqual({
      kind: 'redrive',
      message: { webhook_id: 'wh_1', delivery_id: 'whd_1', attempt: 3 },
      dueAt: now + B.webhookLateAfterMs,
    });
    expect(recoverDelivery({ ...pending, retry_base: 2 }, now, B)).toMatchObject({ message: { retry_base: 2 } });
  });

  it('clears deliveries that are no longer pending', () => {
    for (const status of ['succeeded', 'failed', 'cancelled'])
      expect(recoverDelivery({ ...pending, status }, T0, B)).toEqual({ kind: 'clear' });
  });
});

describe('recoveryBoundsFromEnv', () => {
  it('reads whole seconds and keeps defaults for unset or invalid values', () => {
    const bounds = recoveryBoundsFromEnv({ RECOVERY_QUEUED_AFTER_S: '5', RECOVERY_SEND_GRACE_S: 'soon', RECOVERY_WEBHOOK_LATE_S: '-1' });
    expect(bounds).toEqual({ ...B, queuedRedriveAfterMs: 5000 });
  });
});
