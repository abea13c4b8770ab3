/**
 * The reconciler: finds work that should have moved and did not (the due index) and re-drives it, so
 * nothing accepted is stranded by a crash, a lost message or a lost provider event. Runs on a schedule
 * (EventBridge Scheduler every minute on AWS; a timer on the local cloud), one pass per invocation.
 *
 * Each kind of due-index entry has its recoverer (reconcile/recoverers.ts), which reads the item and
 * carries out its pure recovery policy:
 *
 *   EMAIL (reconcile/recover-email-entry.ts; shared/domain/reliability/recovery-policy.ts)
 *   queued, unclaimed past the bound        -> the send queue again (the worker's claim sends it once)
 *   queued, a dead attempt's lease + grace   -> the send queue again (SES's events had time to settle it)
 *   scheduled, past its time + bound         -> the send queue with its schedule version
 *   sent, no outcome past the first bound    -> email.delivery_delayed published, then recorded
 *   sent, no outcome past the last bound     -> failed, bounce_type `undetermined`, then email.failed
 *   failed undetermined, still due           -> email.failed again (a pass died before publishing it)
 *   DELIVERY (reconcile/recover-delivery-entry.ts; recovery-policy.ts)
 *   webhook delivery pending past due        -> the deliveries queue, next attempt
 *   RUN (reconcile/recover-run-entry.ts; shared/domain/automations/run-recovery.ts)
 *   automation run stuck (a step never handed  -> the automation-steps queue again
 *     over, a dead attempt, a lost wake-up)
 *   DOMAIN (reconcile/recover-domain-entry.ts; reconcile-provider-pending.ts)
 *   domain the mail provider still verifies   -> SES asked again: verified is recorded (sends pass),
 *     (DNS checked out, provider pending)         pending is asked again later (2 min, after an hour
 *                                                 15 min), failed or 72 h is out of the index
 *   any kind
 *   final (a write that left it indexed)     -> out of the index
 *
 * Re-drives to the send queue and the automation-steps queue are sent in batches once every entry is
 * handled, and their due times moved only once they are on the queue (reconcile/redrive-batches.ts).
 *
 * Beside the due index, sweeps of their own (each in its own module, bounded, at their own pace): SES
 * tenants against ours (reconcile-ses-tenants.ts), and raw inbound messages stored and never queued
 * (inbound/discard-unqueued.ts).
 *
 * Each item is read consistently before acting and each write is conditional on what was read, so a
 * pass racing the pipeline (or another pass) at worst re-drives a message the workers then skip.
 * Events the reconciler raises are at least once, with ids derived from the email: delivery_delayed is
 * published before it is recorded (a pass dying in between is followed by one that publishes it again;
 * an outcome arriving in that instant still finds it reported once), and an expired email stays due
 * until its email.failed is out.
 */
import type { RecoveryBounds } from '../../domain/reliability/bounds';
import type { AutomationStepQueue, SendQueue } from '../../ports/queues';
import type { Clock } from '../../ports/clock';
import type { DueEntry } from '../../adapters/store/due-work';
import {
  NO_SES_TENANT_WORK,
  reconcileSesTenants,
  type SesTenantSweepDeps,
  type SesTenantSweepReport,
} from '../ses-tenants/reconcile-ses-tenants';
import { NO_PROVIDER_PENDING_WORK, type ProviderPendingReport } from '../domains/reconcile-provider-pending';
import {
  discardUnqueuedInbound,
  NO_UNQUEUED_INBOUND_WORK,
  type UnqueuedInboundDeps,
  type UnqueuedInboundReport,
} from '../inbound/discard-unqueued';
import { describeDueEntry } from './reconcile/describe-due-entry';
import { recoverDueEntry, type RecoverersDeps } from './reconcile/recoverers';
import type { Count, PassLog, RecoveryPass } from './reconcile/recovery-pass';
import { redriveSends, redriveSteps } from './reconcile/redrive-batches';

/**
 * The recoverers' ports (reconcile/recoverers.ts: emails, webhook deliveries and their queue, runs, the
 * domains the mail provider still verifies and the mailer asked about them, events), and the pass's own.
 */
export interface ReconcileDeps extends RecoverersDeps {
  dueWork: { pastDue(now: number, perShard: number): Promise<DueEntry[]> };
  sendQueue: Pick<SendQueue, 'enqueueMany'>;
  stepQueue: AutomationStepQueue;
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

export async function reconcile(deps: ReconcileDeps, log: PassLog = () => undefined): Promise<ReconcileReport> {
  const now = deps.clock.now().getTime();
  const report: ReconcileReport = {
    examined: 0,
    redriven_queued: 0,
    redriven_scheduled: 0,
    redriven_webhooks: 0,
    redriven_runs: 0,
    delayed: 0,
    expired: 0,
    reannounced: 0,
    waiting: 0,
    cleared: 0,
    errors: 0,
    oldest_due_at: null,
    ...NO_SES_TENANT_WORK,
    ...NO_UNQUEUED_INBOUND_WORK,
    ...NO_PROVIDER_PENDING_WORK,
  };
  const count: Count = (counter, by = 1) => {
    report[counter] += by;
  };
  const entries = await deps.dueWork.pastDue(now, PER_SHARD);
  report.examined = entries.length;
  report.oldest_due_at = entries.reduce<string | null>(
    (oldest, entry) => (oldest === null || entry.dueAt < oldest ? entry.dueAt : oldest),
    null,
  );

  // Send-queue messages and automation steps are batched; the due times move only once they are on their queue.
  const pass: RecoveryPass = { now, count, sends: [], steps: [] };
  await Promise.all(
    entries.map((entry) =>
      recoverDueEntry(entry, deps, pass).catch((error: unknown) => {
        count('errors');
        log(`reconcile: ${describeDueEntry(entry)} failed`, error);
      }),
    ),
  );
  await redriveSends(deps.sendQueue, pass.sends, count, log);
  await redriveSteps(deps.stepQueue, pass.steps, count, log);

  if (deps.sesTenantSweep) Object.assign(report, await reconcileSesTenants(deps.sesTenantSweep, log));
  if (deps.inboundSweep) {
    const swept = await discardUnqueuedInbound(deps.inboundSweep, log);
    report.discarded_inbound = swept.discarded_inbound;
    report.errors += swept.errors;
  }
  return report;
}
