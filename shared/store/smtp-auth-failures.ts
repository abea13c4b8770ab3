/**
 * Failed SMTP relay logins, counted in the table so every relay task shares them
 * (shared/smtp/auth-throttle.ts has the rule). One item per subject (a client address, a credential
 * tried) and fixed window: `ADD #count :one` with the condition `#count < :max` (or no count yet), so
 * DynamoDB admits at most `max` failures per subject and window however many tasks and sessions race:
 * no read-then-write. Items expire by TTL a minute after their window (TTL deletion is lazy; a past
 * window is never read again, since the key names the window).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from './batch-get';
import { keys } from './keys';
import { isConditionFailure, type Table } from './table';

/** How long after its window ends a counter item lives (seconds). */
const TTL_AFTER_WINDOW_SECONDS = 60;

/** A fixed window, epoch seconds: [start, end). */
export interface FailureWindow {
  start: number;
  end: number;
}

export class SmtpAuthFailureRepository {
  constructor(private readonly table: Table) {}

  /** Failures counted in the window for each subject (0 when none), strongly consistent. */
  async counts(subjects: string[], window: FailureWindow): Promise<number[]> {
    if (subjects.length === 1) {
      const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.smtpAuthFailures(subjects[0]!, window.start), ConsistentRead: true }));
      return [Number(result.Item?.count ?? 0)];
    }
    const items = await batchGetItems(this.table, subjects.map((subject) => keys.smtpAuthFailures(subject, window.start)), { consistentRead: true });
    const bySubject = new Map(items.map((item) => [item.PK as string, Number(item.count ?? 0)]));
    return subjects.map((subject) => bySubject.get(keys.smtpAuthFailures(subject, window.start).PK) ?? 0);
  }

  /** Counts one failure of `subject` while it has fewer than `max` in the window: its count after, or null when it already had `max`. */
  async add(subject: string, max: number, window: FailureWindow): Promise<number | null> {
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.smtpAuthFailures(subject, window.start),
          UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl)',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':max': max, ':ttl': window.end + TTL_AFTER_WINDOW_SECONDS },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(result.Attributes?.count ?? max);
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }
}
