/**
 * A scheduled email's changes before it fires: moved to a new time (a new schedule version, so the old
 * firing is stale), moved back when its schedule could not be moved, or cancelled with its usage given back.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { acceptedDueAt, DEFAULT_RECOVERY_BOUNDS, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import { REMOVE_DUE, setDue } from '../due-index';
import { keys } from '../keys';
import { cancelledConditionIndexes, isConditionFailure, transactWrite, type Table } from '../table';
import { forgetTenantScheduledItem } from '../tenant-scheduled';
import { releaseItems, type ReservedCounter } from '../usage';

/** What cancelling a scheduled email asks (PATCH /emails/{id}, a tenant's deletion). */
export interface CancelScheduledRequest {
  accountId: string;
  emailId: string;
  /** The email's tenant: the email leaves its tenant's list of scheduled emails. */
  tenantId: string | null;
  /** The usage its acceptance reserved (`usage_reserved`), given back. */
  reserved?: { entries: ReservedCounter[]; count: number };
  now: string;
}

export type CancelScheduledOutcome = { kind: 'cancelled' } | { kind: 'not_scheduled' };

export class EmailSchedules {
  constructor(
    private readonly table: Table,
    private readonly bounds: RecoveryBounds = DEFAULT_RECOVERY_BOUNDS,
  ) {}

  /**
   * Moves a scheduled email to a new time and a new schedule version; null when it is not (or no
   * longer) scheduled in that account.
   */
  async reschedule(
    accountId: string,
    emailId: string,
    at: string,
    now: string,
  ): Promise<{ version: number; previous: { at: string; version: number } } | null> {
    const due = setDue('EMAIL', emailId, acceptedDueAt(this.bounds, { status: 'scheduled', created_at: now, scheduled_at: at })!);
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.email(emailId),
          UpdateExpression: `SET scheduled_at = :at, updated_at = :now, ${due.set} ADD schedule_version :one`,
          ConditionExpression: '#status = :scheduled AND account_id = :account',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':at': at, ':now': now, ':one': 1, ':scheduled': 'scheduled', ':account': accountId, ...due.values },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const old = result.Attributes ?? {};
      const previousVersion = typeof old.schedule_version === 'number' ? old.schedule_version : 0;
      return { version: previousVersion + 1, previous: { at: old.scheduled_at, version: previousVersion } };
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /** Puts back the time and version of a reschedule whose schedule could not be moved. */
  async revertReschedule(emailId: string, version: number, previous: { at: string; version: number }): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.email(emailId),
          UpdateExpression: 'SET scheduled_at = :at, schedule_version = :previous',
          ConditionExpression: '#status = :scheduled AND schedule_version = :version',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':at': previous.at, ':previous': previous.version, ':version': version, ':scheduled': 'scheduled' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * Cancels a scheduled email of the account and gives back the usage its acceptance reserved, in one
   * transaction; `not_scheduled` when it is not (or no longer) scheduled. A tenant's email leaves its
   * tenant's list in that transaction too.
   */
  async cancelScheduled(request: CancelScheduledRequest): Promise<CancelScheduledOutcome> {
    const { accountId, emailId, tenantId, reserved, now } = request;
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.email(emailId),
            UpdateExpression: `SET #status = :cancelled, cancelled_at = :now, updated_at = :now, last_event = :cancelled REMOVE ${REMOVE_DUE}`,
            ConditionExpression: '#status = :scheduled AND account_id = :account',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':cancelled': 'cancelled', ':now': now, ':scheduled': 'scheduled', ':account': accountId },
          },
        },
        ...(reserved ? releaseItems(this.table, accountId, reserved.entries, reserved.count) : []),
        ...(tenantId ? [forgetTenantScheduledItem(this.table, tenantId, emailId)] : []),
      ]);
      return { kind: 'cancelled' };
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(0)) return { kind: 'not_scheduled' };
      throw error;
    }
  }
}
