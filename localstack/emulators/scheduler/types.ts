/**
 * Stored shapes of the Scheduler emulator. Field names follow the Scheduler API (so GetSchedule can
 * echo them); dates are epoch milliseconds here and become epoch seconds on the wire. Records are
 * treated as immutable: every change stores a new object, so "is this still the record I started
 * firing?" is an identity check.
 */

export type ScheduleState = 'ENABLED' | 'DISABLED';
export type ActionAfterCompletion = 'NONE' | 'DELETE';

export interface RetryPolicy {
  MaximumEventAgeInSeconds: number;
  MaximumRetryAttempts: number;
}

export interface TargetRecord {
  Arn: string;
  RoleArn: string;
  Input?: string;
  DeadLetterConfig?: { Arn?: string };
  RetryPolicy?: Partial<RetryPolicy>;
  SqsParameters?: { MessageGroupId?: string };
}

export interface FlexibleTimeWindow {
  Mode: 'OFF' | 'FLEXIBLE';
  MaximumWindowInMinutes?: number;
}

/** What a CreateSchedule or UpdateSchedule sets (./validation.ts reads it from the request): a schedule's own fields. */
export interface ScheduleFields {
  GroupName: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  Description?: string;
  State: ScheduleState;
  StartDate?: number;
  EndDate?: number;
  KmsKeyArn?: string;
  Target: TargetRecord;
  FlexibleTimeWindow: FlexibleTimeWindow;
  ActionAfterCompletion: ActionAfterCompletion;
  /** Internal: when the at() expression is due (epoch ms). */
  fireAt: number;
}

export interface ScheduleRecord extends ScheduleFields {
  Name: string;
  Arn: string;
  CreationDate: number;
  LastModificationDate: number;
  /** Internal: the one-time invocation has completed (delivered, or retries exhausted). */
  fired: boolean;
  /** Internal: ClientToken of the create, so an SDK retry of the same create is not a conflict. */
  clientToken?: string;
}

export interface Tag {
  Key: string;
  Value: string;
}

export interface GroupRecord {
  Name: string;
  Arn: string;
  CreationDate: number;
  LastModificationDate: number;
  Tags: Tag[];
  clientToken?: string;
}

export const DEFAULT_GROUP = 'default';

/** AWS defaults applied when a target has no RetryPolicy (GetSchedule reports them too). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 };

export function scheduleKey(groupName: string, name: string): string {
  return `${groupName}/${name}`;
}
