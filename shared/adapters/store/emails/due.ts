/**
 * The reconciler's writes on an email it found past due (docs/reliability.md): its due time moved, a sent
 * email without an outcome marked delayed and then failed as undetermined, a final email taken out of the
 * due index.
 */
import type { Email } from '#shared/domain/emails/email';
import { EVENT_RANK } from '#shared/domain/emails/outcomes';
import { UNDETERMINED } from '#shared/domain/reliability/recovery-policy';
import { REMOVE_DUE, setDue } from '../due-index';
import { keys } from '../keys';
import { updateIfCondition, type Table } from '../table';
import { FINAL_STATUSES, toStoredEmail } from './stored-email';

export class EmailDueWork {
  constructor(private readonly table: Table) {}

  /** Reconciler: moves the due time of an email still in `status` (after acting on it); false when it moved on. */
  async postponeDue(emailId: string, status: string, dueAt: number): Promise<boolean> {
    const due = setDue('EMAIL', emailId, dueAt);
    return (
      (await updateIfCondition(this.table, {
        Key: keys.email(emailId),
        ReturnValues: 'NONE',
        UpdateExpression: `SET ${due.set}`,
        ConditionExpression: '#status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ...due.values },
      })) !== null
    );
  }

  /**
   * Reconciler: a sent email the provider has said nothing about past the first bound becomes
   * `delivery_delayed` (last_event; the status stays `sent`) and is looked at again at `dueAt`. Only
   * while it is still sent with no later event; returns the email, or null when it moved on.
   */
  async markUnconfirmed(emailId: string, at: string, dueAt: number): Promise<Email | null> {
    const due = setDue('EMAIL', emailId, dueAt);
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET last_event = :delayed, last_event_rank = :rank, updated_at = :at, ${due.set}`,
      ConditionExpression: '#status = :sent AND last_event_rank < :rank',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':delayed': 'delivery_delayed',
        ':rank': EVENT_RANK.delivery_delayed,
        ':at': at,
        ':sent': 'sent',
        ...due.values,
      },
    });
    return item ? toStoredEmail(item).email : null;
  }

  /**
   * Reconciler: a sent email with no outcome past the last bound fails as `undetermined` (final), only
   * while it is still sent; returns the email, or null when it moved on. It stays in the due index (due
   * at once) until `clearDue` after its email.failed is published, so a pass that dies in between is
   * followed by one that publishes it.
   */
  async expireUnconfirmed(emailId: string, at: string, reason: string): Promise<Email | null> {
    const due = setDue('EMAIL', emailId, Date.parse(at));
    const item = await updateIfCondition(this.table, {
      Key: keys.email(emailId),
      UpdateExpression: `SET #status = :failed, last_event = :failed, last_event_rank = :rank, bounce_type = :type, bounce_reason = :reason, bounced_at = :at, updated_at = :at, ${due.set}`,
      ConditionExpression: '#status = :sent',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':rank': EVENT_RANK.failed,
        ':type': UNDETERMINED,
        ':reason': reason,
        ':at': at,
        ':sent': 'sent',
        ...due.values,
      },
    });
    return item ? toStoredEmail(item).email : null;
  }

  /** Reconciler: takes an email in a final status out of the due index (a write that left it there). */
  async clearDue(emailId: string): Promise<boolean> {
    const finals = [...FINAL_STATUSES];
    return (
      (await updateIfCondition(this.table, {
        Key: keys.email(emailId),
        ReturnValues: 'NONE',
        UpdateExpression: `REMOVE ${REMOVE_DUE}`,
        ConditionExpression: `#status IN (${finals.map((_, i) => `:f${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: Object.fromEntries(finals.map((status, i) => [`:f${i}`, status])),
      })) !== null
    );
  }
}
