import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { SCHEDULED_TASKS, type ScheduledTaskDefinition } from '../definitions';
import { ServiceFunction, type FunctionDefaults } from './service-function';
import { pascalCase } from './util';

function checkTask(task: ScheduledTaskDefinition): void {
  if (!Number.isInteger(task.everyMinutes) || task.everyMinutes < 1)
    throw new Error(`Scheduled task "${task.name}": everyMinutes must be a whole number of minutes >= 1`);
  if (task.timeoutSeconds >= task.everyMinutes * 60)
    throw new Error(`Scheduled task "${task.name}": timeout ${task.timeoutSeconds}s must stay below its period so passes never overlap`);
}

/** One Lambda per SCHEDULED_TASKS entry, invoked by an EventBridge rule at its rate. */
export class ScheduledTasks extends Construct {
  readonly functions: Record<string, lambda.Function> = {};

  constructor(scope: Construct, id: string, props: FunctionDefaults) {
    super(scope, id);
    for (const task of SCHEDULED_TASKS) {
      checkTask(task);
      const fn = new ServiceFunction(this, pascalCase(task.name), {
        ...props,
        name: task.name,
        grants: task.grants,
        timeout: Duration.seconds(task.timeoutSeconds),
        memoryMb: task.memoryMb,
      }).function;
      new events.Rule(this, `${pascalCase(task.name)}Schedule`, {
        description: `mailservice ${task.name}, every ${task.everyMinutes} minute(s)`,
        schedule: events.Schedule.rate(Duration.minutes(task.everyMinutes)),
        // A missed pass is not retried: the next one comes within a minute and does the same work.
        targets: [new targets.LambdaFunction(fn, { retryAttempts: 0 })],
      });
      this.functions[task.name] = fn;
    }
  }
}
