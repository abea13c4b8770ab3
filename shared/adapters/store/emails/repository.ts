/**
 * Emails repository: an email's whole life, one step repository per step (./accept.ts, ./schedule.ts,
 * ./delivery.ts, ./outcomes.ts, ./due.ts, ./read.ts), gathered for the callers that use several (the
 * services' `emails`). A composition root that needs only some steps constructs those alone.
 *
 * An email item is keyed by its own id (no hot partition on the send path); the per-account listing goes
 * through GSI4 (keys only; ../email-listing.ts). Status changes are conditional writes, never read-then-write.
 */
import { DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import type { IdempotencyStore } from '../idempotency';
import type { Table } from '../table';
import { EmailAcceptance } from './accept';
import { EmailDelivery } from './delivery';
import { EmailDueWork } from './due';
import { EmailOutcomes } from './outcomes';
import { EmailReads } from './read';
import { EmailSchedules } from './schedule';

export class EmailRepository {
  readonly get: EmailReads['get'];
  readonly accept: EmailAcceptance['accept'];
  readonly acceptTogether: EmailAcceptance['acceptTogether'];
  readonly create: EmailAcceptance['create'];
  readonly reschedule: EmailSchedules['reschedule'];
  readonly revertReschedule: EmailSchedules['revertReschedule'];
  readonly cancelScheduled: EmailSchedules['cancelScheduled'];
  readonly claimForSend: EmailDelivery['claimForSend'];
  readonly releaseLease: EmailDelivery['releaseLease'];
  readonly holdForRetry: EmailDelivery['holdForRetry'];
  readonly recordSent: EmailDelivery['recordSent'];
  readonly dropContent: EmailDelivery['dropContent'];
  readonly applyOutcome: EmailOutcomes['applyOutcome'];
  readonly recordRecipients: EmailOutcomes['recordRecipients'];
  readonly applyReachedOutcome: EmailOutcomes['applyReachedOutcome'];
  readonly recordEngagement: EmailOutcomes['recordEngagement'];
  readonly postponeDue: EmailDueWork['postponeDue'];
  readonly markUnconfirmed: EmailDueWork['markUnconfirmed'];
  readonly expireUnconfirmed: EmailDueWork['expireUnconfirmed'];
  readonly clearDue: EmailDueWork['clearDue'];

  constructor(table: Table, idempotencyStore?: Pick<IdempotencyStore, 'putItem'>, bounds: RecoveryBounds = DEFAULT_RECOVERY_BOUNDS) {
    const reads = new EmailReads(table);
    this.get = reads.get.bind(reads);
    const acceptance = new EmailAcceptance(table, idempotencyStore, bounds);
    this.accept = acceptance.accept.bind(acceptance);
    this.acceptTogether = acceptance.acceptTogether.bind(acceptance);
    this.create = acceptance.create.bind(acceptance);
    const schedules = new EmailSchedules(table, bounds);
    this.reschedule = schedules.reschedule.bind(schedules);
    this.revertReschedule = schedules.revertReschedule.bind(schedules);
    this.cancelScheduled = schedules.cancelScheduled.bind(schedules);
    const delivery = new EmailDelivery(table, bounds);
    this.claimForSend = delivery.claimForSend.bind(delivery);
    this.releaseLease = delivery.releaseLease.bind(delivery);
    this.holdForRetry = delivery.holdForRetry.bind(delivery);
    this.recordSent = delivery.recordSent.bind(delivery);
    this.dropContent = delivery.dropContent.bind(delivery);
    const outcomes = new EmailOutcomes(table);
    this.applyOutcome = outcomes.applyOutcome.bind(outcomes);
    this.recordRecipients = outcomes.recordRecipients.bind(outcomes);
    this.applyReachedOutcome = outcomes.applyReachedOutcome.bind(outcomes);
    this.recordEngagement = outcomes.recordEngagement.bind(outcomes);
    const due = new EmailDueWork(table);
    this.postponeDue = due.postponeDue.bind(due);
    this.markUnconfirmed = due.markUnconfirmed.bind(due);
    this.expireUnconfirmed = due.expireUnconfirmed.bind(due);
    this.clearDue = due.clearDue.bind(due);
  }
}
