/**
 * How long each pipeline stage may hold an item before the reconciler treats it as stuck, and the due
 * times derived from them. Pure: the stores write these due times into the due index (GSI2, see
 * shared/adapters/store/due-index.ts) with each state change, and the reconciler acts on items past due.
 *
 * Defaults suit AWS; each can be overridden by the environment variable named beside it (whole
 * seconds), which the local cloud and the kill test use to shorten them. docs/reliability.md explains
 * the choice of each.
 */
export interface RecoveryBounds {
  /** An email accepted `queued` (or handed over by its schedule) not yet claimed by the send worker. */
  queuedRedriveAfterMs: number;
  /**
   * After a send attempt's lease ends without an outcome (the worker died), how long to wait for the
   * provider's events before sending again: the attempt may have reached SES before the crash.
   */
  sendGraceMs: number;
  /** A scheduled email still `scheduled` this long after its time (its schedule's firing was lost). */
  scheduledLateAfterMs: number;
  /** A webhook delivery still `pending` this long after its next attempt was due. */
  webhookLateAfterMs: number;
  /** An email `sent` with no outcome from the provider this long: `delivery_delayed`. */
  noOutcomeDelayedAfterMs: number;
  /** An email `sent` with no outcome this long: `failed` with bounce_type `undetermined` (final). */
  noOutcomeFinalAfterMs: number;
  /**
   * A domain whose DNS checked out while the mail provider (SES) still verifies it: asked again this long
   * after each check during the first hour, then every `providerRecheckLateMs` (shared/domain/domains/provider-recheck.ts).
   */
  providerRecheckMs: number;
  providerRecheckLateMs: number;
}

export const RECOVERY_ENV: Record<keyof RecoveryBounds, string> = {
  queuedRedriveAfterMs: 'RECOVERY_QUEUED_AFTER_S',
  sendGraceMs: 'RECOVERY_SEND_GRACE_S',
  scheduledLateAfterMs: 'RECOVERY_SCHEDULED_LATE_S',
  webhookLateAfterMs: 'RECOVERY_WEBHOOK_LATE_S',
  noOutcomeDelayedAfterMs: 'RECOVERY_NO_OUTCOME_DELAYED_S',
  noOutcomeFinalAfterMs: 'RECOVERY_NO_OUTCOME_FINAL_S',
  providerRecheckMs: 'RECOVERY_DOMAIN_RECHECK_S',
  providerRecheckLateMs: 'RECOVERY_DOMAIN_RECHECK_LATE_S',
};

export const DEFAULT_RECOVERY_BOUNDS: RecoveryBounds = {
  // SQS normally hands an email to the worker within a second; a backlog of minutes is not stuck.
  queuedRedriveAfterMs: 10 * 60_000,
  // SES reports Delivery (or Bounce, DeliveryDelay) within seconds to a few minutes of accepting.
  sendGraceMs: 5 * 60_000,
  scheduledLateAfterMs: 5 * 60_000,
  webhookLateAfterMs: 5 * 60_000,
  noOutcomeDelayedAfterMs: 60 * 60_000,
  // SES gives up on a deferred message well within this and reports a bounce.
  noOutcomeFinalAfterMs: 72 * 60 * 60_000,
  // SES verifies most identities within minutes of seeing the DKIM record; the stragglers take hours.
  providerRecheckMs: 2 * 60_000,
  providerRecheckLateMs: 15 * 60_000,
};

/** The bounds from the environment (whole seconds), defaults where unset or not a positive integer. */
export function recoveryBoundsFromEnv(env: NodeJS.ProcessEnv): RecoveryBounds {
  const bounds = { ...DEFAULT_RECOVERY_BOUNDS };
  for (const [name, variable] of Object.entries(RECOVERY_ENV) as [keyof RecoveryBounds, string][]) {
    const seconds = Number(env[variable]);
    if (env[variable] !== undefined && Number.isInteger(seconds) && seconds > 0) bounds[name] = seconds * 1000;
  }
  return bounds;
}

const parse = (iso: string | null | undefined): number | null => {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : ms;
};

/** When a just-accepted email becomes due: queued past the redrive bound, or scheduled past its time. */
export function acceptedDueAt(
  bounds: RecoveryBounds,
  email: { status: string; created_at: string; scheduled_at?: string | null },
): number | null {
  if (email.status === 'queued') return (parse(email.created_at) ?? Date.now()) + bounds.queuedRedriveAfterMs;
  if (email.status === 'scheduled') return (parse(email.scheduled_at) ?? Date.now()) + bounds.scheduledLateAfterMs;
  return null;
}

/** A pending webhook delivery: due a bound after its next attempt. */
export function pendingDeliveryDueAt(bounds: RecoveryBounds, nextAttemptAt: string | null, now: number): number {
  return (parse(nextAttemptAt) ?? now) + bounds.webhookLateAfterMs;
}
