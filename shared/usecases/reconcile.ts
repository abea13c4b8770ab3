/**
 * The reconciler: finds work that should have moved and did not (the due index) and re-drives it, so
 * nothing accepted is stranded by a crash, a lost message or a lost provider event. Runs on a schedule
 * (EventBridge Scheduler every minute on AWS; a timer on the local cloud), one pass per invocation.
 *
 *   queued, unclaimed past the bound        -> the send queue again (the worker's claim sends it once)
 *   queued, a dead attempt's lease + grace   -> the send queue again (SES's events had time to settle it)
 *   scheduled, past its time + bound         -> the send queue with its schedule version
 *   sent, no outcome past the first bound    -> email.delivery_delayed published, then recorded
 *   sent, no outcome past the last bound     -> failed, bounce_type `undetermined`, then email.failed
 *   failed undetermined, still due           -> email.failed again (a pass died before publishing it)
 *   webhook delivery pending past due        -> the deliveries queue, next attempt
 *   automation run stuck (a step never handed  -> the automation-steps queue again (run-recovery.ts)
 *     over, a dead attempt, a lost wake-up)
 *   domain the mail provider still verifies   -> SES asked again: verified is recorded (sends pass),
 *     (DNS checked out, provider pending)         pending is asked again later (2 min, after an hour
 *                                                 15 min), failed or 72 h is out of the index
 *                                                 (reconcile-provider-pending.ts)
 *   final (a write that left it indexed)     -> out of the index
 *
 * Beside the due index, sweeps of their own (each in its own module, bounded, at their own pace): SES
 * tenants against ours (reconcile-ses-tenants.ts).
 *
 * Each item is read consistently before acting and each write is conditional on what was read, so a
 * pass racing the pipeline (or another pass) at worst re-drives a message the workers then skip.
 * Events the reconciler raises are at least once, with ids derived from the email: delivery_delayed is
 * published before it is recorded (a pass dying in between is followed by one that publishes it again;
 * an outcome arriving in that instant still finds it reported once), and an expired email stays due
 * until its email.failed is out.
 */
import { emailEvent } from '../domain/webhooks/email-event-data';
import { recoverDelivery, recoverEmail } from '../domain/reliability/recovery-policy';
import type { RecoveryBounds } from '../domain/reliability/bounds';
import type { SendMessage } from '../domain/messages';
import { recoverRun } from '../domain/automations/run-recovery';
import type { AutomationStepMessage } from '../domain/messages';
import type { AutomationStepQueue, Clock, EventPublisher, SendQueue, WebhookDeliveryQueue } from '../ports';
import type { RunRepository } from '../store/runs';
import type { DueEntry } from '../store/due-work';
import type { EmailRepository } from '../store/emails';
import type { WebhookDeliveryRepository } from '../store/webhook-deliveries';
import { NO_SES_TENANT_WORK, reconcileSesTenants, type SesTenantSweepDeps, type SesTenantSweepReport } from './reconcile-ses-tenants';
import { NO_PROVIDER_PENDING_WORK, reconcileProviderPending, type ProviderPendingDeps, type ProviderPendingReport } from './reconcile-provider-pending';
import { discardUnqueuedInbound, NO_UNQUEUED_INBOUND_WORK, type UnqueuedInboundDeps, type UnqueuedInboundReport } from './inbound/discard-unqueued';

export interface ReconcileDeps {
  dueWork: { pastDue(now: number, perShard: number): Promise<DueEntry[]> };
  emails: Pick<EmailRepository, 'get' | 'postponeDue' | 'clearDue' | 'markUnconfirmed' | 'expireUnconfirmed'>;
  webhookDeliveries: Pick<WebhookDeliveryRepository, 'get' | 'postponeDue' | 'clearDue'>;
  sendQueue: Pick<SendQueue, 'enqueueMany'>;
  webhookDeliveryQueue: WebhookDeliveryQueue;
  runs: Pick<RunRepository, 'get' | 'postponeDue' | 'clearDue'>;
  stepQueue: AutomationStepQueue;
  /** Domains the mail provider still verifies (DOMAIN entries): asked about through the mailer. */
  domains: ProviderPendingDeps['domains'];
  mailer: ProviderPendingDeps['mailer'];
  events: EventPublisher;
  clock: Clock;
  bounds: RecoveryBounds;
  /** SES tenants against ours (reconcile-ses-tenants.ts, at most every 5 minutes); absent: not swept. */
  sesTenantSweep?: SesTenantSweepDeps;
  /** Raw inbound messages stored and never queued (inbound/discard-unqueued.ts); absent: not swept. */
  inboundSweep?: UnqueuedInboundDeps;
}

export interface ReconcileReport extends SesTenantSweepReport, UnqueuedInboundReport, ProviderPendingReport {
  /** Past-due index entries examined. */
  examined: number;
  /** Emails put on the send queue again: unclaimed or dead attempts (queued), missed firings (scheduled). */
  redriven_queued: number;
  redriven_scheduled: number;
  /** Webhook deliveries put on the deliveries queue again. */
  redriven_webhooks: number;
  /** Automation runs whose step (or wake-up) was put on the automation-steps queue again. */
  redriven_runs: number;
  /** Sent emails reported delivery_delayed, and failed as undetermined, for want of an outcome. */
  delayed: number;
  expired: number;
  /** Expired emails whose email.failed an earlier pass may not have published: published again. */
  reannounced: number;
  /** Entries still within their bound (a live attempt, a domain SES still verifies) or already final: index updated only. */
  waiting: number;
  cleared: number;
  /** Entries whose handling failed (logged; they stay due and are tried on the next pass). */
  errors: number;
  /** Time of the oldest past-due entry found, ISO (null: none): how far behind the pipeline is. */
  oldest_due_at: string | null;
}

/** Entries read per shard per pass: bounds a pass's work; a backlog drains over a few passes. */
const PER_SHARD = 50;

export async function reconcile(deps: ReconcileDeps, log: (message: string, error: unknown) => void = () => undefined): Promise<ReconcileReport> {
  const now = deps.clock.now().getTime();
  const report: ReconcileReport = { examined: 0, redriven_queued: 0, redriven_scheduled: 0, redriven_webhooks: 0, redriven_runs: 0, delayed: 0, expired: 0, reannounced: 0, waiting: 0, cleared: 0, errors: 0, oldest_due_at: null, ...NO_SES_TENANT_WORK, ...NO_UNQUEUED_INBOUND_WORK, ...NO_PROVIDER_PENDING_WORK };
  const entries = await deps.dueWork.pastDue(now, PER_SHARD);
  report.examined = entries.length;
  report.oldest_due_at = entries.reduce<string | null>((oldest, entry) => (oldest === null || entry.dueAt < oldest ? entry.dueAt : oldest), null);

  // Send-queue messages are batched (10 per call); the due times move only once they are on the queue.
  const sends: { message: SendMessage; postpone: () => Promise<unknown>; stage: 'queued' | 'scheduled' }[] = [];
  const steps: { message: AutomationStepMessage; postpone: () => Promise<unknown> }[] = [];

  await Promise.all(
    entries.map(async (entry) => {
      try {
        if (entry.kind === 'EMAIL') {
          const stored = await deps.emails.get(entry.id);
          if (!stored) return;
          const { email, internals } = stored;
          const action = recoverEmail({ ...email, send_lease_until: internals.send_lease_until, schedule_version: internals.schedule_version }, now, deps.bounds);
          switch (action.kind) {
            case 'redrive':
              sends.push({ message: action.message, stage: action.stage, postpone: () => deps.emails.postponeDue(email.id, action.status, action.dueAt) });
              return;
            case 'wait':
              report.waiting++;
              await deps.emails.postponeDue(email.id, action.status, action.dueAt);
              return;
            case 'delay': {
              const at = new Date(now).toISOString();
              const reported = { ...email, last_event: 'delivery_delayed' as const, updated_at: at };
              await deps.events.publish([emailEvent(reported, 'email.delivery_delayed', at, { occurrence: 'no-outcome', extra: { reason: 'no_outcome_reported' } })]);
              if (await deps.emails.markUnconfirmed(email.id, at, action.dueAt)) report.delayed++;
              return;
            }
            case 'expire': {
              const at = new Date(now).toISOString();
              const failed = await deps.emails.expireUnconfirmed(email.id, at, action.reason);
              if (failed) {
                await deps.events.publish([emailEvent(failed, 'email.failed', at)]);
                await deps.emails.clearDue(email.id);
                report.expired++;
              }
              return;
            }
            case 'announce':
              await deps.events.publish([emailEvent(email, 'email.failed', email.bounced_at ?? new Date(now).toISOString())]);
              await deps.emails.clearDue(email.id);
              report.reannounced++;
              return;
            case 'clear':
              report.cleared++;
              await deps.emails.clearDue(email.id);
              return;
          }
        }
        if (entry.kind === 'DOMAIN') {
          const outcome = await reconcileProviderPending(deps, entry.id, now);
          if (outcome === 'completed') report.domains_completed++;
          else if (outcome === 'postponed') report.waiting++;
          else if (outcome === 'cleared') report.cleared++;
          return;
        }
        if (entry.kind === 'RUN') {
          const run = await deps.runs.get(entry.id);
          if (!run) return;
          const action = recoverRun(run, now, deps.bounds);
          if (action.kind === 'clear') {
            report.cleared++;
            await deps.runs.clearDue(run.id);
          } else if (action.kind === 'wait') {
            report.waiting++;
            await deps.runs.postponeDue(run.id, action.dueAt);
          } else {
            steps.push({ message: action.message, postpone: () => deps.runs.postponeDue(run.id, action.dueAt) });
          }
          return;
        }
        const split = entry.id.indexOf('#');
        const webhookId = entry.id.slice(0, split);
        const deliveryId = `whd_${entry.id.slice(split + 1)}`;
        const delivery = await deps.webhookDeliveries.get(webhookId, deliveryId);
        if (!delivery) return;
        const action = recoverDelivery(delivery, now, deps.bounds);
        if (action.kind === 'clear') {
          report.cleared++;
          await deps.webhookDeliveries.clearDue(webhookId, deliveryId);
        } else if (action.kind === 'wait') {
          report.waiting++;
          await deps.webhookDeliveries.postponeDue(webhookId, deliveryId, action.dueAt);
        } else {
          await deps.webhookDeliveryQueue.enqueue(action.message, 0);
          await deps.webhookDeliveries.postponeDue(webhookId, deliveryId, action.dueAt);
          report.redriven_webhooks++;
        }
      } catch (error) {
        report.errors++;
        log(`reconcile: ${entry.kind} ${entry.id} failed`, error);
      }
    }),
  );

  if (sends.length > 0) {
    const { failed } = await deps.sendQueue.enqueueMany(sends.map((send) => send.message));
    const refused = new Set(failed);
    report.errors += refused.size;
    await Promise.all(
      sends.map(async (send, position) => {
        if (refused.has(position)) return;
        report[send.stage === 'queued' ? 'redriven_queued' : 'redriven_scheduled']++;
        try {
          await send.postpone();
        } catch (error) {
          report.errors++;
          log(`reconcile: postponing ${send.message.email_id} failed`, error);
        }
      }),
    );
  }
  if (steps.length > 0) {
    try {
      await deps.stepQueue.enqueueAll(steps.map((step) => step.message));
      report.redriven_runs += steps.length;
      await Promise.all(
        steps.map((step) =>
          step.postpone().catch((error: unknown) => {
            report.errors++;
            log(`reconcile: postponing run ${step.message.run_id} failed`, error);
          }),
        ),
      );
    } catch (error) {
      // Not postponed: they stay due and the next pass tries again.
      report.errors += steps.length;
      log('reconcile: the automation-steps queue refused re-driven steps', error);
    }
  }
  if (deps.sesTenantSweep) Object.assign(report, await reconcileSesTenants(deps.sesTenantSweep, log));
  if (deps.inboundSweep) {
    const swept = await discardUnqueuedInbound(deps.inboundSweep, log);
    report.discarded_inbound = swept.discarded_inbound;
    report.errors += swept.errors;
  }
  return report;
}
