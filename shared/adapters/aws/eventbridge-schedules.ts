/**
 * One-time schedules on EventBridge Scheduler: an `at()` schedule in the service's group that puts one
 * message on an SQS queue, deleted after it fires (ActionAfterCompletion DELETE). Two users:
 *  - EmailScheduler: one schedule per scheduled email, into the send queue;
 *  - StepScheduler: one per waiting automation step (a delay's end, a wait's timeout), into the
 *    automation-steps queue.
 */
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { AutomationStepMessage, SendMessage } from '../../domain/messages';
import type { EmailScheduler, StepScheduler } from '../../ports/scheduling';

export interface SchedulerSettings {
  group: string;
  /** The queue the schedules deliver into (its ARN). */
  targetArn: string;
  roleArn: string;
}

/**
 * `at(yyyy-mm-ddThh:mm:ss)` in UTC. EventBridge Scheduler has one-second precision: a time with
 * milliseconds is rounded up, so a schedule never fires before the requested time.
 */
export function atExpression(at: Date): string {
  return `at(${new Date(Math.ceil(at.getTime() / 1000) * 1000).toISOString().slice(0, 19)})`;
}

const isName = (error: unknown, name: string) => error instanceof Error && error.name === name;
const notFound = (error: unknown) => error instanceof ResourceNotFoundException || isName(error, 'ResourceNotFoundException');
const conflict = (error: unknown) => error instanceof ConflictException || isName(error, 'ConflictException');

/** Creations tried when the schedule keeps firing (and going) between a creation and an update. */
const UPSERT_ATTEMPTS = 3;

export class OneTimeSchedules {
  constructor(
    private readonly client: SchedulerClient,
    private readonly settings: SchedulerSettings,
  ) {}

  private input(name: string, at: Date, message: unknown): CreateScheduleCommandInput {
    return {
      Name: name,
      GroupName: this.settings.group,
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: this.settings.targetArn, RoleArn: this.settings.roleArn, Input: JSON.stringify(message) },
    };
  }

  /**
   * Creates the schedule, or moves it (and its message) when one of that name exists: creation first,
   * as most schedules are new (one call; a step's schedule is only ever made again by a retried attempt).
   */
  async upsert(name: string, at: Date, message: unknown): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(new CreateScheduleCommand(this.input(name, at, message)));
        return;
      } catch (error) {
        // It exists (an earlier attempt, a reschedule, a concurrent creation): move it to this time and message.
        if (!conflict(error)) throw error;
      }
      try {
        await this.client.send(new UpdateScheduleCommand(this.input(name, at, message)));
        return;
      } catch (error) {
        // It fired between the two calls and was deleted after completion (ActionAfterCompletion DELETE): a
        // reschedule racing the firing. Made again at the new time; the firing's message carries the old version.
        if (!notFound(error) || attempt >= UPSERT_ATTEMPTS) throw error;
      }
    }
  }

  /** A schedule that already fired or never existed is not an error. */
  async remove(name: string): Promise<void> {
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: name, GroupName: this.settings.group }));
    } catch (error) {
      if (!notFound(error)) throw error;
    }
  }
}

/** Scheduled emails: named after the email, so there is at most one per email. */
export class EventBridgeEmailScheduler implements EmailScheduler {
  private readonly schedules: OneTimeSchedules;

  constructor(client: SchedulerClient, settings: SchedulerSettings) {
    this.schedules = new OneTimeSchedules(client, settings);
  }

  upsert(emailId: string, at: Date, version: number): Promise<void> {
    return this.schedules.upsert(emailId, at, { email_id: emailId, schedule_version: version } satisfies SendMessage);
  }

  remove(emailId: string): Promise<void> {
    return this.schedules.remove(emailId);
  }
}

/** The schedule of a run's waiting step: `<run id>-<step index>` (at most 64 characters: 30 + 1 + 2). */
export const stepScheduleName = (runId: string, stepIndex: number) => `${runId}-${stepIndex}`;

/** Waiting automation steps: the wake-up message of (run, step), at most one schedule per pair. */
export class EventBridgeStepScheduler implements StepScheduler {
  private readonly schedules: OneTimeSchedules;

  constructor(client: SchedulerClient, settings: SchedulerSettings) {
    this.schedules = new OneTimeSchedules(client, settings);
  }

  wakeAt(runId: string, stepIndex: number, at: Date): Promise<void> {
    return this.schedules.upsert(stepScheduleName(runId, stepIndex), at, {
      run_id: runId,
      step_index: stepIndex,
      wake: true,
    } satisfies AutomationStepMessage);
  }
}
