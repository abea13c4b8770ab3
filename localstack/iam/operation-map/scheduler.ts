/**
 * The operation map's EventBridge Scheduler entries (../operations.ts assembles the table).
 *
 * EventBridge Scheduler: CreateSchedule/UpdateSchedule also pass the target's role, so they are
 * iam:PassRole on Target.RoleArn with iam:PassedToService=scheduler.amazonaws.com
 * (https://docs.aws.amazon.com/scheduler/latest/UserGuide/setting-up.html#setting-up-execution-role,
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_passrole.html).
 */
import { required, schedulerScheduleArn, type Input } from '../operation-arns';
import type { Mapper, MappedRequest } from './mapper';

function schedule(action: string, passesRole: boolean): Mapper {
  return (input, env) => {
    const requests: MappedRequest[] = [
      {
        action: `scheduler:${action}`,
        resource: schedulerScheduleArn(env, input.GroupName as string | undefined, required(input, 'Name', `scheduler:${action}`)),
        context: {},
      },
    ];
    if (passesRole) {
      const roleArn = required((input.Target ?? {}) as Input, 'RoleArn', `scheduler:${action} Target`);
      requests.push({ action: 'iam:PassRole', resource: roleArn, context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
    }
    return requests;
  };
}

export const SCHEDULER_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'Scheduler.CreateSchedule': schedule('CreateSchedule', true),
  'Scheduler.UpdateSchedule': schedule('UpdateSchedule', true),
  'Scheduler.DeleteSchedule': schedule('DeleteSchedule', false),
  'Scheduler.GetSchedule': schedule('GetSchedule', false),
};
