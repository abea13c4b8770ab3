/**
 * Validation of request bodies and parameters, with AWS-like constraints and messages. Produces the
 * user-supplied part of a schedule; the operations add names, ARNs and dates.
 */
import { constraint, validation } from './errors';
import { isValidTimezone, parseScheduleExpression } from './expressions';
import type { FlexibleTimeWindow, ScheduleFields, Tag, TargetRecord } from './types';
import { parseSqsArn } from './sqs-arn';

const NAME = /^[0-9a-zA-Z\-_.]+$/;
const ROLE_ARN = /^arn:aws(-[a-z]+)?:iam::\d{12}:role\/[\w+=,.@/-]+$/;

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function validateName(value: unknown, member: string): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 64 || !NAME.test(value)) {
    throw constraint(member, value, 'Member must have length between 1 and 64 and match pattern [0-9a-zA-Z-_.]+');
  }
  return value;
}

function optString(body: JsonObject, member: string, max: number): string | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length < 1 || v.length > max) {
    throw constraint(member, v, `Member must be a string of length between 1 and ${max}`);
  }
  return v;
}

function optInt(obj: JsonObject, member: string, min: number, max: number, path: string): number | undefined {
  const v = obj[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw constraint(path, v, `Member must be an integer between ${min} and ${max}`);
  }
  return v;
}

/** Epoch-seconds timestamps (the SDK's wire format); ISO strings are accepted too. Returns epoch ms. */
function optTimestamp(body: JsonObject, member: string): number | undefined {
  const v = body[member];
  if (v === undefined || v === null) return undefined;
  const ms = typeof v === 'number' ? v * 1000 : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw constraint(member, v, 'Member must be a timestamp');
  return ms;
}

function oneOf<T extends string>(body: JsonObject, member: string, allowed: readonly T[], fallback: T): T {
  const v = body[member];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw constraint(member, v, `Member must satisfy enum value set: [${allowed.join(', ')}]`);
  }
  return v as T;
}

function flexibleTimeWindow(v: unknown): FlexibleTimeWindow {
  if (!isObject(v)) throw constraint('flexibleTimeWindow', undefined, 'Member must not be null');
  const mode = v.Mode;
  if (mode !== 'OFF' && mode !== 'FLEXIBLE') {
    throw constraint('flexibleTimeWindow.mode', mode, 'Member must satisfy enum value set: [OFF, FLEXIBLE]');
  }
  const max = optInt(v, 'MaximumWindowInMinutes', 1, 1440, 'flexibleTimeWindow.maximumWindowInMinutes');
  if (mode === 'FLEXIBLE' && max === undefined) {
    throw validation('MaximumWindowInMinutes must be provided when FlexibleTimeWindow Mode is FLEXIBLE.');
  }
  if (mode === 'OFF' && max !== undefined) {
    throw validation('MaximumWindowInMinutes must not be provided when FlexibleTimeWindow Mode is OFF.');
  }
  return max === undefined ? { Mode: mode } : { Mode: mode, MaximumWindowInMinutes: max };
}

function target(v: unknown): TargetRecord {
  if (!isObject(v)) throw constraint('target', undefined, 'Member must not be null');
  const arn = v.Arn;
  if (typeof arn !== 'string' || arn.length < 1 || arn.length > 1600) {
    throw constraint('target.arn', arn, 'Member must have length between 1 and 1600');
  }
  const queue = parseSqsArn(arn);
  if (!queue) {
    throw validation(
      `Target ${arn} is not supported by the local emulator: only Amazon SQS queue targets (arn:aws:sqs:<region>:<account>:<queue>) are supported.`,
    );
  }
  const roleArn = v.RoleArn;
  if (typeof roleArn !== 'string' || !ROLE_ARN.test(roleArn)) {
    throw constraint('target.roleArn', roleArn, 'Member must match pattern arn:aws(-[a-z]+)?:iam::\\d{12}:role\\/[\\w+=,.@\\/-]+');
  }
  const out: TargetRecord = { Arn: arn, RoleArn: roleArn };

  const input = optString(v, 'Input', 8192);
  if (input !== undefined) out.Input = input;

  if (v.DeadLetterConfig !== undefined && v.DeadLetterConfig !== null) {
    if (!isObject(v.DeadLetterConfig)) throw constraint('target.deadLetterConfig', v.DeadLetterConfig, 'Member must be an object');
    const dlq = v.DeadLetterConfig.Arn;
    if (dlq !== undefined && dlq !== null) {
      const parsed = typeof dlq === 'string' ? parseSqsArn(dlq) : undefined;
      if (!parsed || parsed.fifo) {
        throw constraint('target.deadLetterConfig.arn', dlq, 'Member must be the ARN of a standard Amazon SQS queue');
      }
      out.DeadLetterConfig = { Arn: dlq as string };
    } else {
      out.DeadLetterConfig = {};
    }
  }

  if (v.RetryPolicy !== undefined && v.RetryPolicy !== null) {
    if (!isObject(v.RetryPolicy)) throw constraint('target.retryPolicy', v.RetryPolicy, 'Member must be an object');
    const age = optInt(v.RetryPolicy, 'MaximumEventAgeInSeconds', 60, 86400, 'target.retryPolicy.maximumEventAgeInSeconds');
    const attempts = optInt(v.RetryPolicy, 'MaximumRetryAttempts', 0, 185, 'target.retryPolicy.maximumRetryAttempts');
    out.RetryPolicy = {};
    if (age !== undefined) out.RetryPolicy.MaximumEventAgeInSeconds = age;
    if (attempts !== undefined) out.RetryPolicy.MaximumRetryAttempts = attempts;
  }

  if (v.SqsParameters !== undefined && v.SqsParameters !== null) {
    if (!isObject(v.SqsParameters)) throw constraint('target.sqsParameters', v.SqsParameters, 'Member must be an object');
    const group = optString(v.SqsParameters, 'MessageGroupId', 128);
    out.SqsParameters = group === undefined ? {} : { MessageGroupId: group };
  }
  if (queue.fifo && !out.SqsParameters?.MessageGroupId) {
    throw validation(`Target ${arn} is a FIFO queue: SqsParameters.MessageGroupId is required.`);
  }
  if (!queue.fifo && out.SqsParameters?.MessageGroupId) {
    throw validation(`SqsParameters.MessageGroupId is only valid for FIFO queue targets.`);
  }
  return out;
}

/** The user-supplied fields of CreateSchedule / UpdateSchedule: the schedule's own, and the create's ClientToken. */
export interface ScheduleInput extends ScheduleFields {
  ClientToken?: string;
}

export function validateScheduleInput(body: JsonObject, defaultGroup: string): ScheduleInput {
  const expression = body.ScheduleExpression;
  if (typeof expression !== 'string' || expression.length < 1 || expression.length > 256) {
    throw constraint('scheduleExpression', expression, 'Member must have length between 1 and 256');
  }
  const timezone = optString(body, 'ScheduleExpressionTimezone', 50);
  if (timezone !== undefined && !isValidTimezone(timezone)) {
    throw validation(`Invalid ScheduleExpressionTimezone ${timezone}.`);
  }
  const { fireAt } = parseScheduleExpression(expression, timezone);
  const groupRaw = body.GroupName;
  const input: ScheduleInput = {
    GroupName: groupRaw === undefined || groupRaw === null ? defaultGroup : validateName(groupRaw, 'groupName'),
    ScheduleExpression: expression,
    State: oneOf(body, 'State', ['ENABLED', 'DISABLED'] as const, 'ENABLED'),
    Target: target(body.Target),
    FlexibleTimeWindow: flexibleTimeWindow(body.FlexibleTimeWindow),
    ActionAfterCompletion: oneOf(body, 'ActionAfterCompletion', ['NONE', 'DELETE'] as const, 'NONE'),
    fireAt,
  };
  if (timezone !== undefined) input.ScheduleExpressionTimezone = timezone;
  const description = optString(body, 'Description', 512);
  if (description !== undefined) input.Description = description;
  const start = optTimestamp(body, 'StartDate');
  if (start !== undefined) input.StartDate = start;
  const end = optTimestamp(body, 'EndDate');
  if (end !== undefined) input.EndDate = end;
  const kms = optString(body, 'KmsKeyArn', 2048);
  if (kms !== undefined) input.KmsKeyArn = kms;
  const token = optString(body, 'ClientToken', 64);
  if (token !== undefined) input.ClientToken = token;
  return input;
}

/** MaxResults query parameter (1..100); `fallback` when absent. */
export function validateMaxResults(raw: string | null, fallback: number): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw constraint('maxResults', raw, 'Member must have value between 1 and 100');
  return n;
}

/** Tags of a schedule group: a list of {Key (1..128), Value (0..256)}. */
export function validateTags(value: unknown): Tag[] {
  if (!Array.isArray(value)) throw constraint('tags', value, 'Member must not be null');
  return value.map((t, i) => {
    if (
      !isObject(t) ||
      typeof t.Key !== 'string' ||
      typeof t.Value !== 'string' ||
      t.Key.length < 1 ||
      t.Key.length > 128 ||
      t.Value.length > 256
    ) {
      throw constraint(`tags.${i + 1}`, JSON.stringify(t), 'Member must have a Key (1-128 chars) and a Value (0-256 chars)');
    }
    return { Key: t.Key, Value: t.Value };
  });
}
