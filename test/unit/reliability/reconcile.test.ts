/** The reconciler use case with in-memory fakes of its ports: what it re-drives, reports and moves. */
import { DEFAULT_RECOVERY_BOUNDS as B } from '../../../shared/domain/reliability/bounds';
import type { Email } from '../../../shared/domain/emails/email';
import type { WebhookDelivery } from '../../../shared/domain/webhooks/delivery';
import type { ServiceEvent } from '../../../shared/domain/webhooks/event';
import type { AutomationStepMessage, SendMessage, WebhookDeliveryMessage } from '../../../shared/domain/messages';
import { newRun, type Run } from '../../../shared/domain/automations/run';
import type { DueEntry } from '../../../shared/store/due-work';
import type { StoredEmail } from '../../../shared/store/emails';
import { reconcile, type ReconcileDeps } from '../../../shared/usecases/reconcile';
import type { ProviderDomainState } from '../../../shared/ports';
import { fakePendingDomains } from './fake-pending-domains';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function email(id: string, over: Partial<Email>, internals: StoredEmail['internals'] = {}): StoredEmail {
  return {
    email: {
      id, account_id: 'acc_1', from: 'a@x.test', to: ['r@y.test'], cc: [], bcc: [], reply_to: [], subject: 's', status: 'queued', last_event: 'queued',
      bounce_reason: null, bounce_type: null, tags: [], headers: {}, scheduled_at: null, cancelled_at: null, sent_at: null, delivered_at: null, bounced_at: null,
      created_at: iso(NOW - 3_600_000), tenant: null, provider_message_id: null, ...over,
    },
    body: { inline: {} },
    internals,
  };
}

function fakes(
  emails: StoredEmail[],
  deliveries: WebhookDelivery[] = [],
  options: { refuseSends?: boolean; refuseSteps?: boolean; runs?: Run[]; pendingDomains?: string[]; ses?: (name: string) => ProviderDomainState | Error } = {},
) {
  const pending = fakePendingDomains({ now: () => NOW, ses: options.ses ?? (() => new Error('SES not expected')) });
  for (const id of options.pendingDomains ?? []) pending.addPending(id, iso(NOW - 2 * 60_000));
  const runs = new Map((options.runs ?? []).map((run) => [run.id, run]));
  const stepMessages: AutomationStepMessage[] = [];
  const byId = new Map(emails.map((stored) => [stored.email.id, stored]));
  const due = new Map<string, number>();
  const sent: SendMessage[] = [];
  const webhookMessages: WebhookDeliveryMessage[] = [];
  const events: ServiceEvent[] = [];
  const entries: DueEntry[] = [
    ...emails.map((stored) => ({ kind: 'EMAIL' as const, id: stored.email.id, dueAt: iso(NOW - 1000) })),
    ...deliveries.map((delivery) => ({ kind: 'DELIVERY' as const, id: `${delivery.webhook_id}#${delivery.id.slice(4)}`, dueAt: iso(NOW - 5000) })),
    ...[...runs.keys()].map((id) => ({ kind: 'RUN' as const, id, dueAt: iso(NOW - 1000) })),
    ...(options.pendingDomains ?? []).map((id) => ({ kind: 'DOMAIN' as const, id, dueAt: iso(pending.due.get(id)!) })),
  ];
  const deps: ReconcileDeps = {
    dueWork: { pastDue: async () => entries },
    emails: {
      get: async (id) => byId.get(id) ?? null,
      postponeDue: async (id, status, at) => (byId.get(id)?.email.status === status ? (due.set(id, at), true) : false),
      clearDue: async (id) => (due.set(id, -1), true),
      markUnconfirmed: async (id) => {
        const stored = byId.get(id)!;
        stored.email.last_event = 'delivery_delayed';
        return stored.email;
      },
      expireUnconfirmed: async (id, at, reason) => {
        const stored = byId.get(id)!;
        Object.assign(stored.email, { status: 'failed', bounce_type: 'undetermined', bounce_reason: reason, bounced_at: at });
        return stored.email;
      },
    },
    webhookDeliveries: {
      get: async (webhookId, deliveryId) => deliveries.find((d) => d.webhook_id === webhookId && d.id === deliveryId) ?? null,
      postponeDue: async (_w, deliveryId, at) => (due.set(deliveryId, at), true),
      clearDue: async (_w, deliveryId) => (due.set(deliveryId, -1), true),
    },
    sendQueue: { enqueueMany: async (messages) => (options.refuseSends ? { failed: messages.map((_, i) => i) } : (sent.push(...messages), { failed: [] })) },
    webhookDeliveryQueue: { enqueue: async (message) => void webhookMessages.push(message) },
    runs: {
      get: async (id) => runs.get(id) ?? null,
      postponeDue: async (id, at) => (runs.get(id)?.status === 'running' ? (due.set(id, at), true) : false),
      clearDue: async (id) => void due.set(id, -1),
    },
    stepQueue: {
      enqueueAll: async (messages) => {
        if (options.refuseSteps) throw new Error('SQS unavailable');
        stepMessages.push(...messages);
      },
    },
    domains: pending.deps.domains,
    mailer: pending.deps.mailer,
    events: { publish: async (batch) => void events.push(...batch) },
    clock: { now: () => new Date(NOW) },
    bounds: B,
  };
  return { deps, due, sent, webhookMessages, events, stepMessages, pending };
}

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
    const expired = fakes([email('msg_e', { status: 'sent', last_event: 'delivery_delayed', sent_at: iso(NOW - B.noOutcomeFinalAfterMs) })]);
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
    const { deps, due, events } = fakes([email('msg_x', { status: 'sent', last_event: 'delivery_delayed', sent_at: iso(NOW - B.noOutcomeFinalAfterMs) })]);
    expect(await reconcile(deps)).toMatchObject({ expired: 1, reannounced: 0 });
    expect(events.map((e) => e.type)).toEqual(['email.failed']);
    expect(due.get('msg_x')).toBe(-1);
  });

  it('re-drives the next attempt of a pending webhook delivery and clears finished ones', async () => {
    const delivery = (id: string, status: WebhookDelivery['status']): WebhookDelivery => ({
      id, webhook_id: 'wh_1', account_id: 'acc_1', event_id: 'evt_1', event_type: 'email.sent', payload: '{}', status,
      attempts: [{ attempt: 1, at: iso(NOW - 600_000), status_code: 500, duration_ms: 3, error: null, response_excerpt: null }],
      next_attempt_at: iso(NOW - B.webhookLateAfterMs - 1), created_at: iso(NOW - 700_000), updated_at: iso(NOW - 600_000),
    });
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
    const run = (over: Partial<Run>): Run => ({
      ...newRun({
        automation: { id: 'auto_1', account_id: 'acc_1', name: 'A', version: 1, steps: [{ key: 'wait', type: 'delay', duration: '1 hour' }, { key: 'c', type: 'condition', field: 'event.name', operator: 'exists' }] },
        event: { id: 'ae_1', name: 'signup', user_id: 'u1', email: null, data: {}, created_at: iso(NOW - 7_200_000) },
        subject: 'user:u1',
        now: new Date(NOW - 7_200_000),
      }),
      ...over,
    });

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
