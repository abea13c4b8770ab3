/**
 * The reconciler's deps (shared/usecases/reliability/reconcile.ts) over in-memory fakes of its ports and stores, for
 * the pass's tests and the recoverer table's: what the fakes were asked to queue, publish and move is
 * kept for the tests to read (`due`: item id -> due time, -1 once out of the index).
 */
import type { Email } from '#shared/domain/emails/email';
import type { WebhookDelivery } from '#shared/domain/webhooks/delivery';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import type { AutomationStepMessage, SendMessage, WebhookDeliveryMessage } from '#shared/domain/messages';
import { newRun, type Run } from '#shared/domain/automations/run';
import { DEFAULT_RECOVERY_BOUNDS as B } from '#shared/domain/reliability/bounds';
import type { DueEntry } from '#shared/adapters/store/due-work';
import type { StoredEmail } from '#shared/adapters/store/emails/stored-email';
import type { ReconcileDeps } from '#shared/usecases/reliability/reconcile';
import type { ProviderDomainState } from '#shared/domain/domains/provider-verification';
import { fakePendingDomains } from './fake-pending-domains';

export const NOW = Date.parse('2026-11-22T12:00:00.000Z');
export const iso = (ms: number) => new Date(ms).toISOString();

export function email(id: string, over: Partial<Email>, internals: StoredEmail['internals'] = {}): StoredEmail {
  return {
    email: {
      id,
      account_id: 'acc_1',
      from: 'a@x.test',
      to: ['r@y.test'],
      cc: [],
      bcc: [],
      reply_to: [],
      subject: 's',
      status: 'queued',
      last_event: 'queued',
      bounce_reason: null,
      bounce_type: null,
      tags: [],
      headers: {},
      scheduled_at: null,
      cancelled_at: null,
      sent_at: null,
      delivered_at: null,
      bounced_at: null,
      created_at: iso(NOW - 3_600_000),
      tenant: null,
      provider_message_id: null,
      ...over,
    },
    body: { inline: {} },
    internals,
  };
}

/** A delivery of endpoint wh_1 with one failed attempt, its next attempt past the bound. */
export const webhookDelivery = (id: string, status: WebhookDelivery['status']): WebhookDelivery => ({
  id,
  webhook_id: 'wh_1',
  account_id: 'acc_1',
  event_id: 'evt_1',
  event_type: 'email.sent',
  payload: '{}',
  status,
  attempts: [{ attempt: 1, at: iso(NOW - 600_000), status_code: 500, duration_ms: 3, error: null, response_excerpt: null }],
  next_attempt_at: iso(NOW - B.webhookLateAfterMs - 1),
  created_at: iso(NOW - 700_000),
  updated_at: iso(NOW - 600_000),
});

/** A run of a two-step automation (a delay, then a condition), started two hours before NOW. */
export const automationRun = (over: Partial<Run>): Run => ({
  ...newRun({
    automation: {
      id: 'auto_1',
      account_id: 'acc_1',
      name: 'A',
      version: 1,
      allowed_domains: null,
      steps: [
        { key: 'wait', type: 'delay', duration: '1 hour' },
        { key: 'c', type: 'condition', field: 'event.name', operator: 'exists' },
      ],
    },
    event: { id: 'ae_1', name: 'signup', user_id: 'u1', email: null, data: {}, created_at: iso(NOW - 7_200_000) },
    subject: 'user:u1',
    now: new Date(NOW - 7_200_000),
  }),
  ...over,
});

/** The reconciler's deps over in-memory fakes holding `emails`, `deliveries` and the options' runs and pending domains, each one past-due entry. */
export function fakeReconcileDeps(
  emails: StoredEmail[],
  deliveries: WebhookDelivery[] = [],
  options: {
    refuseSends?: boolean;
    refuseSteps?: boolean;
    runs?: Run[];
    pendingDomains?: string[];
    ses?: (name: string) => ProviderDomainState | Error;
  } = {},
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
    ...emails.map((stored) => ({ kind: 'EMAIL' as const, emailId: stored.email.id, dueAt: iso(NOW - 1000) })),
    ...deliveries.map((delivery) => ({
      kind: 'DELIVERY' as const,
      webhookId: delivery.webhook_id,
      deliveryId: delivery.id,
      dueAt: iso(NOW - 5000),
    })),
    ...[...runs.keys()].map((runId) => ({ kind: 'RUN' as const, runId, dueAt: iso(NOW - 1000) })),
    ...(options.pendingDomains ?? []).map((domainId) => ({ kind: 'DOMAIN' as const, domainId, dueAt: iso(pending.due.get(domainId)!) })),
  ];
  const deps: ReconcileDeps = {
    dueWork: { pastDue: async () => entries },
    emails: {
      get: async (id) => byId.get(id) ?? null,
      postponeDue: async (id, status, at) => {
        if (byId.get(id)?.email.status !== status) return false;
        due.set(id, at);
        return true;
      },
      clearDue: async (id) => {
        due.set(id, -1);
        return true;
      },
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
      postponeDue: async (_w, deliveryId, at) => {
        due.set(deliveryId, at);
        return true;
      },
      clearDue: async (_w, deliveryId) => {
        due.set(deliveryId, -1);
        return true;
      },
    },
    sendQueue: {
      enqueueMany: async (messages) => {
        if (options.refuseSends) return { failed: messages.map((_, i) => i) };
        sent.push(...messages);
        return { failed: [] };
      },
    },
    webhookDeliveryQueue: { enqueue: async (message) => void webhookMessages.push(message) },
    runs: {
      get: async (id) => runs.get(id) ?? null,
      postponeDue: async (id, at) => {
        if (runs.get(id)?.status !== 'running') return false;
        due.set(id, at);
        return true;
      },
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
    domainHealth: pending.deps.domainHealth,
    events: { publish: async (batch) => void events.push(...batch) },
    clock: { now: () => new Date(NOW) },
    bounds: B,
  };
  return { deps, entries, due, sent, webhookMessages, events, stepMessages, pending };
}
