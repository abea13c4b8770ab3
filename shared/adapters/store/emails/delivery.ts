/**
 * Sending an email: the claim that holds it for one attempt (a lease), the lease given back or held for a
 * retry, the hand-off to the provider recorded as `sent`, and a sent email's content dropped (redaction).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Email } from '#shared/domain/emails/email';
import { EVENT_RANK } from '#shared/domain/emails/outcomes';
import { DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import { setDue } from '../due-index';
import { keys } from '../keys';
import { isConditionFailure, updateIfCondition, type Table } from '../table';
import { TenantScheduledRepository } from '../tenant-scheduled';
import { toStoredEmail, type StoredEmail } from './stored-email';

/**
 * `settled`: a redelivered message for an email an earlier attempt settled (sent, or failed for good):
 * that attempt may have died between its write and publishing the event, so the worker publishes it again.
 */
export type ClaimResult =
  | { kind: 'claimed'; stored: StoredEmail }
  | { kind: 'leased' }
  | { kind: 'settled'; email: Email }
  | { kind: 'not_sendable' };

export class EmailDelivery {
  /** Tenants' scheduled emails (../tenant-scheduled.ts): a firing takes its email off its tenant's list. */
  private readonly tenantScheduled: TenantScheduledRepository;

  constructor(
    private readonly table: Table,
    private readonly bounds: RecoveryBounds = DEFAULT_RECOVERY_BOUNDS,
  ) {
    this.tenantScheduled = new TenantScheduledRepository(table);
  }

  /**
   * Claims an email for sending with a lease, so a redelivered SQS message cannot send it twice while
   * the first attempt is alive (`leased`: retry later); an expired lease (crashed worker) can be claimed
   * again. A scheduled email is claimed only by the firing of its current schedule version, which
   * moves it to queued; a cancelled or rescheduled email is `not_sendable` for the stale firing.
   */
  async claimForSend(emailId: string, now: number, leaseMs: number, scheduleVersion?: number): Promise<ClaimResult> {
    const scheduled = scheduleVersion === undefined ? '' : ' OR (#status = :scheduled AND schedule_version = :version)';
    // A lease that ended without an outcome (the attempt died) is taken again only after the grace for
    // the provider's events: the attempt may have reached SES, whose Delivery would then settle it.
    const reclaimBefore = now - this.bounds.sendGraceMs;
    // The due entry is left where acceptance put it (a key change is a delete and a put on the due index):
    // an email delivered within queuedRedriveAfterMs leaves the index without another write, and the
    // reconciler, finding one still leased or sent, waits (recovery-policy.ts) as it would at its lease's end.
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.email(emailId),
          // What only acceptance needed goes: the usage the outbox relay read from the INSERT's image, and a
          // scheduled email's reservation (it can no longer be cancelled). The sent and outcome writes that
          // follow are sized on what is left.
          UpdateExpression: 'SET send_lease_until = :until, #status = :queued ADD send_attempts :one REMOVE usage_deferred, usage_reserved',
          ConditionExpression: `(#status = :queued AND (attribute_not_exists(send_lease_until) OR send_lease_until < :reclaim))${scheduled}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':queued': 'queued',
            ':until': now + leaseMs,
            ':reclaim': reclaimBefore,
            ':one': 1,
            ...(scheduleVersion === undefined ? {} : { ':scheduled': 'scheduled', ':version': scheduleVersion }),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!result.Attributes) return { kind: 'not_sendable' };
      const stored = toStoredEmail(result.Attributes);
      // A firing ends the schedule: the email leaves its tenant's list (best effort, ../tenant-scheduled.ts).
      if (scheduleVersion !== undefined && stored.email.tenant_id)
        await this.tenantScheduled.forget(stored.email.tenant_id, emailId).catch(() => undefined);
      return { kind: 'claimed', stored };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return this.refusedClaim(emailId, reclaimBefore);
    }
  }

  /** Why a claim was refused, read only to choose between "retry later" and "drop": the claim itself was the conditional write. */
  private async refusedClaim(emailId: string, reclaimBefore: number): Promise<ClaimResult> {
    const current = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.email(emailId), ConsistentRead: true }),
    );
    const item = current.Item;
    if (item?.status === 'queued' && typeof item.send_lease_until === 'number' && item.send_lease_until >= reclaimBefore)
      return { kind: 'leased' };
    const settledByAttempt =
      typeof item?.provider_message_id === 'string' ||
      (item?.status === 'failed' && item.last_event === 'failed' && (item.send_attempts ?? 0) > 0);
    // Also for a schedule's firing (redelivered after the attempt it started): its event is owed the same way.
    if (item && settledByAttempt && item.status !== 'queued' && item.status !== 'scheduled')
      return { kind: 'settled', email: toStoredEmail(item).email };
    return { kind: 'not_sendable' };
  }

  /** Gives a claimed email back (transient failure): the next delivery of the message retries at once. */
  async releaseLease(emailId: string): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.email(emailId),
        UpdateExpression: 'REMOVE send_lease_until',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  }

  /**
   * Holds a queued, unclaimed email until `retryAt` (service clock, ms): its send waits for SES's rate or
   * for SES's account to send again (usecases/send/deliver-paced.ts), and its own message comes back
   * then. Until then another message for it finds it leased and is dropped, and the reconciler waits for
   * it; it is due again a redrive bound after `retryAt`, should that message be lost. The lease ends the
   * send grace (and a second) before `retryAt`, since a claim takes an ended lease only after that grace.
   * A message that claimed the email in between goes on: nothing is written then.
   */
  async holdForRetry(emailId: string, retryAt: number): Promise<void> {
    const due = setDue('EMAIL', emailId, retryAt + this.bounds.queuedRedriveAfterMs);
    await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET send_lease_until = :until, ${due.set}`,
      ConditionExpression: '#status = :queued AND attribute_not_exists(send_lease_until)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':until': retryAt - this.bounds.sendGraceMs - 1000, ':queued': 'queued', ...due.values },
      ReturnValues: 'NONE',
    });
  }

  /**
   * Records the hand-off to the provider as `sent`, in one conditional write while the email is still
   * queued (the normal case). Only when a provider event overtook it (Delivery before this write) does a
   * second write record the provider id and sent_at without moving the status back. Returns the email.
   */
  async recordSent(emailId: string, providerMessageId: string, at: string, messageId?: string): Promise<Email | null> {
    // Sent stays in the due index until the provider reports an outcome, under the due time acceptance set:
    // the reconciler finding it sent then waits until sentDueAt (delivery_delayed, then final). Not moved here,
    // so the normal life of an email writes the due index twice (in at acceptance, out at its outcome).
    // The Message-ID recipients see (SES's), when the provider told it.
    const mid = messageId ? { set: ', message_id = :mid', values: { ':mid': messageId } } : { set: '', values: {} };
    const moved = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET provider_message_id = :pid${mid.set}, #status = :sent, last_event = :sent, last_event_rank = :rank, sent_at = if_not_exists(sent_at, :at) REMOVE send_lease_until`,
      ConditionExpression: '#status = :queued',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pid': providerMessageId,
        ':sent': 'sent',
        ':rank': EVENT_RANK.sent,
        ':at': at,
        ':queued': 'queued',
        ...mid.values,
      },
    });
    if (moved) return toStoredEmail(moved).email;
    const kept = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET provider_message_id = :pid${mid.set}, sent_at = if_not_exists(sent_at, :at) REMOVE send_lease_until`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':pid': providerMessageId, ':at': at, ...mid.values },
    });
    return kept ? toStoredEmail(kept).email : null;
  }

  /**
   * Content redaction (docs/redaction.md): a sent email's body (inline or its blob key), raw message (inline
   * or its key) and subject leave the record, its attachments keep their name, type and size only. One conditional
   * write; null when the email is gone. The send worker deleted the objects before (drop-content.ts).
   */
  async dropContent(emailId: string, at: string, attachments: Email['attachments'] | undefined, subject: string): Promise<Email | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET #subject = :subject, content_dropped_at = :at${attachments ? ', attachments = :attachments' : ''} REMOVE body, body_blob_key, mime_blob_key, mime_inline`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#subject': 'subject' },
      ExpressionAttributeValues: { ':subject': subject, ':at': at, ...(attachments ? { ':attachments': attachments } : {}) },
    });
    return item ? toStoredEmail(item).email : null;
  }
}
