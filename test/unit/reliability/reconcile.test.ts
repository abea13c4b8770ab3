/** The reconciler use case with in-memory fakes of its ports: what it re-drives, reports and moves. */
import { DEFAULT_RECOVERY_BOUNDS as B } from '#shared/domain/reliability/bounds';
import { reconcile } from '#shared/usecases/reliability/reconcile';
import type { ProviderDomainState } from '#shared/domain/domains/provider-verification';
import { automationRun as run, email, fakeReconcileDeps as fakes, iso, NOW, webhookDelivery as delivery } from './fake-reconcile-deps';

describe('reconcile', () => {
  it('re-drives a stranded queued email and a missed scheduled firing, and moves their due times', async () => {
    const { deps, due, sent } = fakes([
      email('msg_q', {}),
      email('msg_s', { status: 'scheduled', scheduled_at: iso(NOW - B.scheduledLateAfterMs - 1) }, { schedule_version: 2 }),
    ]);
    const report = await reconcile(deps);
    expect(sent).toEqual(expect.arrayContaining([{ email_id: 'msg_q' }, { email_id: 'msg_s', schedule_version: 2 }]));
    expect(report).toMatchObject({ examined: 2, redriven_queued: 1, redriven_scheduled: 1, errors: 0 });
    expect(due.get('msg_q')).toBe(NOW + B.queuedRedriveAfterMs);
    expect(report.oldest_due_at).toBe(iso(NOW - 1000));
  });

  it('does not re-drive an email whose attempt still holds the lease, only moves its due time', async () => {
    const lease = NOW + 10_000;
    const { deps, due, sent } = fakes([email('msg_q', {}, { send_lease_until: lease })]);
    const report = await reconcile(deps);
    expect(sent).toEqual([]);
    expect(report).toMatchObject({ waiting: 1, redriven_queued: 0 });
    expect(due.get('msg_q')).toBe(lease + B.sendGraceMs);
  });

  it('reports a sent email without an outcome as delayed (email.delivery_delayed), then fails it as undetermined (email.failed)', async () => {
    const delayed = fakes([email('msg_d', { status: 'sent', last_event: 'sent', sent_at: iso(NOW - B.noOutcomeDelayedAfterMs) })]);
    expect(await reconcile(delayed.deps)).toMatchObject({ delayed: 1 });
    expect(delayed.events.map((e) => e.type)).toEqual(['email.delivery_delayed']);
    const expired = fakes([
      email('msg_e', { status: 'sent', last_event: 'delivery_delayed', sent_at: iso(NOW - B.noOutcomeFinalAfterMs) }),
    ]);
    expect(await reconcile(expired.deps)).toMatchObject({ expired: 1 });
    expect(expired.events.map((e) => [e.type, e.data.bounce_type])).toEqual([['email.failed', 'undetermined']]);
  });

  it('publishes delivery_delayed before recording it: a pass that dies in between is followed by one that publishes it again (same id)', async () => {
    const stored = email('msg_d', { status: 'sent', last_event: 'sent', sent_at: iso(NOW - B.noOutcomeDelayedAfterMs) });
    const first = fakes([stored]);
    first.deps.emails.markUnconfirmed = async () => {
      throw new Error('killed before the write');
    };
    expect(await reconcile(first.deps)).toMatchObject({ delayed: 0, errors: 1 });
    expect(first.events.map((e) => e.type)).toEqual(['email.delivery_delayed']);
    expect(stored.email.last_event).toBe('sent');
    const second = fakes([stored]);
    expect(await reconcile(second.deps)).toMatchObject({ delayed: 1, errors: 0 });
    expect(second.events.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
    expect(stored.email.last_event).toBe('delivery_delayed');
  });

  it('keeps an expired email due until its email.failed is published; a later pass publishes it (same id) and clears it', async () => {
    const stored = email('msg_e', { status: 'sent', last_event: 'delivery_delayed', sent_at: iso(NOW - B.noOutcomeFinalAfterMs) });
    const first = fakes([stored]);
    first.deps.events.publish = async (batch) => {
      first.events.push(...batch);
      throw new Error('killed before the publish was acknowledged');
    };
    expect(await reconcile(first.deps)).toMatchObject({ expired: 0, errors: 1 });
    expect(stored.email).toMatchObject({ status: 'failed', bounce_type: 'undetermined' });
    expect(first.due.has('msg_e')).toBe(false);
    const second = fakes([stored]);
    expect(await reconcile(second.deps)).toMatchObject({ reannounced: 1, errors: 0 });
    expect(second.events.map((e) => [e.type, e.data.bounce_type])).toEqual([['email.failed', 'undetermined']]);
    expect(second.events.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
    expect(second.due.get('msg_e')).toBe(-1);
  });

  it('takes an expired email out of the index once its email.failed is published', async () => {
    const { deps, due, events } = fakes([
      email('msg_x', { status: 'sent', last_event: 'delivery_delayed', sent_at: iso(NOW - B.noOutcomeFinalAfterMs) }),
    ]);
    expect(await reconcile(deps)).toMatchObject({ expired: 1, reannounced: 0 });
    expect(events.map((e) => e.type)).toEqual(['email.failed']);
    expect(due.get('msg_x')).toBe(-1);
  });

  it('re-drives the next attempt of a pending webhook delivery and clears finished ones', async () => {
    const pendingId = 'whd_01JD0000000000000000000001';
    const doneId = 'whd_01JD0000000000000000000002';
    const { deps, due, webhookMessages } = fakes([], [delivery(pendingId, 'pending'), delivery(doneId, 'succeeded')]);
    const report = await reconcile(deps);
    expect(webhookMessages).toEqual([{ webhook_id: 'wh_1', delivery_id: pendingId, attempt: 2 }]);
    expect(report).toMatchObject({ redriven_webhooks: 1, cleared: 1 });
    expect(due.get(doneId)).toBe(-1);
  });

  it('leaves an email due when the send queue refuses it (counted as an error, tried on the next pass)', async () => {
    const { deps, due } = fakes([email('msg_q', {})], [], { refuseSends: true });
    const report = await reconcile(deps);
    expect(report).toMatchObject({ redriven_queued: 0, errors: 1 });
    expect(due.has('msg_q')).toBe(false);
  });

  it('completes a domain SES verified meanwhile, asks again later about one it still verifies, and leaves one it could not ask due', async () => {
    const answers: Record<string, ProviderDomainState | Error> = {
      'dom_ok.example.test': { status: 'verified', detail: 'SES can send from the domain.' },
      'dom_wait.example.test': { status: 'pending', detail: 'SES has not yet confirmed the DKIM record.' },
      'dom_down.example.test': new Error('SES unavailable'),
    };
    const { deps, pending } = fakes([], [], { pendingDomains: ['dom_ok', 'dom_wait', 'dom_down'], ses: (name) => answers[name]! });
    const logged: string[] = [];
    const report = await reconcile(deps, (message) => logged.push(message));
    expect(report).toMatchObject({ examined: 3, domains_completed: 1, waiting: 1, errors: 1 });
    expect(pending.domain('dom_ok')).toMatchObject({ status: 'verified', provider: { status: 'verified' } });
    expect(pending.due.has('dom_ok')).toBe(false);
    expect(pending.due.get('dom_wait')).toBe(NOW + B.providerRecheckMs);
    expect(pending.due.get('dom_down')).toBe(NOW);
    expect(logged).toEqual(['reconcile: DOMAIN dom_down failed']);
  });

  describe('automation runs', () => {
    it('re-drives a pending step, a dead attempt and a lost wake-up; waits for a live lease and a future wake; clears ended runs', async () => {
      const pending = run({ id: 'run_pending' });
      const dead = run({ id: 'run_dead', step_state: 'claimed', lease_until: NOW - 1, attempt: 1 });
      const live = run({ id: 'run_live', step_state: 'claimed', lease_until: NOW + 10_000, attempt: 1 });
      const lost = run({ id: 'run_lost', step_state: 'waiting', wake_at: iso(NOW - B.scheduledLateAfterMs - 1) });
      const later = run({ id: 'run_later', step_state: 'waiting', wake_at: iso(NOW + 60_000) });
      const ended = run({ id: 'run_ended', status: 'completed' });
      const { deps, due, stepMessages } = fakes([], [], { runs: [pending, dead, live, lost, later, ended] });
      const report = await reconcile(deps);
      expect(stepMessages).toEqual(
        expect.arrayContaining([
          { run_id: 'run_pending', step_index: 0 },
          { run_id: 'run_dead', step_index: 0 },
          { run_id: 'run_lost', step_index: 0, wake: true },
        ]),
      );
      expect(stepMessages).toHaveLength(3);
      expect(report).toMatchObject({ redriven_runs: 3, waiting: 2, cleared: 1 });
      expect(due.get('run_pending')).toBe(NOW + B.queuedRedriveAfterMs);
      expect(due.get('run_lost')).toBe(NOW + B.scheduledLateAfterMs);
      expect(due.get('run_live')).toBe(NOW + 10_000);
      expect(due.get('run_later')).toBe(NOW + 60_000 + B.scheduledLateAfterMs);
      expect(due.get('run_ended')).toBe(-1);
    });

    it('when the automation-steps queue refuses the re-drives, their due times stay (the next pass tries again)', async () => {
      const pending = run({ id: 'run_pending' });
      const lost = run({ id: 'run_lost', step_state: 'waiting', wake_at: iso(NOW - B.scheduledLateAfterMs - 1) });
      const { deps, due, stepMessages } = fakes([], [], { runs: [pending, lost], refuseSteps: true });
      const report = await reconcile(deps);
      expect(stepMessages).toEqual([]);
      expect(report).toMatchObject({ redriven_runs: 0, errors: 2 });
      expect(due.has('run_pending')).toBe(false);
      expect(due.has('run_lost')).toBe(false);
    });
  });
});
