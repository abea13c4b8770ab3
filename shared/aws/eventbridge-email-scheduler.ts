/**
 * EmailScheduler on EventBridge Scheduler: one `at()` schedule per email in the service's group,
 * targeting the send queue, deleted after it fires (ActionAfterCompletion DELETE).
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
import type { SendMessage } from '../domain/messages';
import type { EmailScheduler } from '../ports';

export interface SchedulerSettings {
  group: string;
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

export class EventBridgeEmailScheduler implements EmailScheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly settings: SchedulerSettings,
  ) {}

  private input(emailId: string, at: Date, version: number): CreateScheduleCommandInput {
    return {
      Name: emailId,
      GroupName: this.settings.group,
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: this.settings.targetArn,
        RoleArn: this.settings.roleArn,
        Input: JSON.stringify({ email_id: emailId, schedule_version: version } satisfies SendMessage),
      },
    };
  }

  async upsert(emailId: string, at: Date, version: number): Promise<void> {
    try {
      await this.client.send(new UpdateScheduleCommand(this.input(emailId, at, version)));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException) && !isName(error, 'ResourceNotFoundException')) throw error;
      try {
        await this.client.send(new CreateScheduleCommand(this.input(emailId, at, version)));
      } catch (createError) {
        // Created concurrently by another attempt: move it to this version.
        if (!(createError instanceof ConflictException) && !isName(createError, 'ConflictException')) throw createError;
        await this.client.send(new UpdateScheduleCommand(this.input(emailId, at, version)));
      }
    }
  }

  async remove(emailId: string): Promise<void> {
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: emailId, GroupName: this.settings.group }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException) && !isName(error, 'ResourceNotFoundException')) throw error;
    }
  }
}
