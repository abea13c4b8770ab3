import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SCHEDULE_GROUP } from '../definitions';

export interface SchedulingProps {
  /** SCHEDULE_GROUP.targetQueues, each with its ARN's environment variable: the only queues schedules may deliver into. */
  targetQueues: { queue: sqs.IQueue; arnEnvVar: string }[];
}

/**
 * EventBridge Scheduler group for the one-time schedules (scheduled sends, automation delays and wait
 * timeouts) and the role the scheduler assumes to deliver them: sqs:SendMessage on the target queues
 * (SCHEDULE_GROUP.targetQueues), nothing else.
 */
export class Scheduling extends Construct {
  readonly group: scheduler.ScheduleGroup;
  readonly role: iam.Role;
  readonly targetQueues: { queue: sqs.IQueue; arnEnvVar: string }[];

  constructor(scope: Construct, id: string, props: SchedulingProps) {
    super(scope, id);
    const { account } = Stack.of(this);
    this.targetQueues = props.targetQueues;

    this.group = new scheduler.ScheduleGroup(this, 'Group', {
      scheduleGroupName: SCHEDULE_GROUP.name,
      // Pending schedules target this stack's queue: they go with it.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.role = new iam.Role(this, 'Role', {
      description: 'Assumed by EventBridge Scheduler to deliver one-time schedules to the send and automation-steps queues',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        // Confused-deputy guard: only schedules of this account's group may use the role.
        conditions: { StringEquals: { 'aws:SourceAccount': account, 'aws:SourceArn': this.group.scheduleGroupArn } },
      }),
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: props.targetQueues.map((target) => target.queue.queueArn) }),
    );
  }

  /** ARN pattern of the schedules of the group (the resource of schedule-level actions). */
  get schedulesArn(): string {
    return Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.group.scheduleGroupName}/*`,
    });
  }
}
