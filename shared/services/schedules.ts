/** EventBridge Scheduler: one-time schedules of scheduled sends (into the send queue) and of waiting automation steps. */
import { createSchedulerClient } from '../adapters/aws/scheduler-client';
import { EventBridgeEmailScheduler, EventBridgeStepScheduler } from '../adapters/aws/eventbridge-schedules';
import type { Config } from '../config/config';

export function buildSchedules(config: Config) {
  const client = createSchedulerClient(config);
  return {
    scheduler: new EventBridgeEmailScheduler(client, {
      group: config.scheduleGroup,
      targetArn: config.schedulerTargetArn,
      roleArn: config.schedulerRoleArn,
    }),
    stepScheduler: new EventBridgeStepScheduler(client, {
      group: config.scheduleGroup,
      targetArn: config.automationStepsQueueArn,
      roleArn: config.schedulerRoleArn,
    }),
  };
}

export type ScheduleServices = ReturnType<typeof buildSchedules>;
