/**
 * Stored records -> API output shapes. Dates go out as epoch seconds (the REST-JSON default the SDK
 * turns back into Date objects). Defaults AWS reports are filled in: State, ActionAfterCompletion,
 * ScheduleExpressionTimezone (UTC) and the target's RetryPolicy (185 attempts, 86400 s).
 */
import { DEFAULT_RETRY_POLICY, type GroupRecord, type ScheduleRecord } from './types';

const seconds = (ms: number): number => ms / 1000;

export function scheduleView(s: ScheduleRecord): Record<string, unknown> {
  const target: Record<string, unknown> = {
    ...s.Target,
    RetryPolicy: { ...DEFAULT_RETRY_POLICY, ...s.Target.RetryPolicy },
  };
  const out: Record<string, unknown> = {
    Arn: s.Arn,
    GroupName: s.GroupName,
    Name: s.Name,
    ScheduleExpression: s.ScheduleExpression,
    ScheduleExpressionTimezone: s.ScheduleExpressionTimezone ?? 'UTC',
    State: s.State,
    CreationDate: seconds(s.CreationDate),
    LastModificationDate: seconds(s.LastModificationDate),
    Target: target,
    FlexibleTimeWindow: s.FlexibleTimeWindow,
    ActionAfterCompletion: s.ActionAfterCompletion,
  };
  if (s.Description !== undefined) out.Description = s.Description;
  if (s.StartDate !== undefined) out.StartDate = seconds(s.StartDate);
  if (s.EndDate !== undefined) out.EndDate = seconds(s.EndDate);
  if (s.KmsKeyArn !== undefined) out.KmsKeyArn = s.KmsKeyArn;
  return out;
}

export function scheduleSummaryView(s: ScheduleRecord): Record<string, unknown> {
  return {
    Arn: s.Arn,
    Name: s.Name,
    GroupName: s.GroupName,
    State: s.State,
    CreationDate: seconds(s.CreationDate),
    LastModificationDate: seconds(s.LastModificationDate),
    Target: { Arn: s.Target.Arn },
  };
}

export function groupView(g: GroupRecord): Record<string, unknown> {
  return {
    Arn: g.Arn,
    Name: g.Name,
    State: 'ACTIVE',
    CreationDate: seconds(g.CreationDate),
    LastModificationDate: seconds(g.LastModificationDate),
  };
}
