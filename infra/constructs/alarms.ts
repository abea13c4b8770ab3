import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueId } from '../definitions';
import { METRICS_NAMESPACE } from '#shared/config/metrics';
import { pascalCase } from './util';
import { AWS_PAUSE, AWS_REVIEW } from '#shared/domain/reputation/brake';

/** Age of a queue's oldest message that means its consumers have stalled (well above a normal backlog). */
export const QUEUE_AGE_ALARM_SECONDS = 300;
/** Age of the oldest past-due item the reconciler found: work stuck longer than its bound plus this. */
export const OVERDUE_ALARM_SECONDS = 900;

export interface AlarmsProps {
  queues: Record<QueueId, sqs.Queue>;
  deadLetterQueues: Record<QueueId, sqs.Queue>;
  /** The deployment's own thresholds on SES's reputation rates (REPUTATION_BOUNCE_RATE, REPUTATION_COMPLAINT_RATE). */
  reputation: { bounceRate: number; complaintRate: number };
}

/** SES's account-level reputation metrics (rates from 0 to 1: https://docs.aws.amazon.com/ses/latest/dg/reputationdashboard-cloudwatch-alarm.html). */
export const SES_REPUTATION_METRICS = { bounce: 'Reputation.BounceRate', complaint: 'Reputation.ComplaintRate' } as const;

/**
 * Stuck work is seen before a customer sees it (docs/reliability.md): per queue, the age of the oldest
 * message and any message in its DLQ; the reconciler's age of the oldest past-due item and its
 * re-drives (a re-drive means something was lost or stalled and was recovered). Alarms have no
 * actions here: subscribe them to your paging topic.
 */
export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    for (const queueId of Object.keys(QUEUES) as QueueId[]) {
      const name = pascalCase(queueId);
      this.alarms.push(
        props.queues[queueId]
          .metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' })
          .createAlarm(this, `${name}OldestMessage`, {
            alarmDescription: `${QUEUES[queueId].name}: a message has waited over ${QUEUE_AGE_ALARM_SECONDS}s (consumers stalled or failing)`,
            threshold: QUEUE_AGE_ALARM_SECONDS,
            evaluationPeriods: 3,
            comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
          }),
        props.deadLetterQueues[queueId]
          .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' })
          .createAlarm(this, `${name}DeadLetters`, {
            alarmDescription: `${QUEUES[queueId].dlqName}: messages gave up after ${QUEUES[queueId].maxReceiveCount} receives`,
            threshold: 0,
            evaluationPeriods: 1,
            comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
          }),
      );
    }
    // The reputation guard (docs/deliverability.md): SES's own rates for the whole SES account, which AWS
    // reviews at 5% / 0.1%, alarmed at the deployment's thresholds below them. No action (as the others): the
    // brake itself runs from the table's stream; subscribe these to your paging topic.
    const percent = (rate: number) => `${Number((rate * 100).toFixed(4))}%`;
    const reputationAlarm = (id: string, metric: keyof typeof SES_REPUTATION_METRICS, threshold: number) =>
      new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName: SES_REPUTATION_METRICS[metric],
        period: Duration.minutes(15),
        statistic: 'Maximum',
      }).createAlarm(this, id, {
        alarmDescription: `SES's ${metric} rate for this account reached ${percent(threshold)} (AWS reviews the account at ${percent(AWS_REVIEW[`${metric}Rate`])}, may pause it at ${percent(AWS_PAUSE[`${metric}Rate`])}): see the reputation brake's pauses (docs/deliverability.md)`,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    this.alarms.push(
      reputationAlarm('SesBounceRate', 'bounce', props.reputation.bounceRate),
      reputationAlarm('SesComplaintRate', 'complaint', props.reputation.complaintRate),
    );
    const reconcilerMetric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { Task: 'reconciler' },
        period: Duration.minutes(5),
        statistic,
      });
    this.alarms.push(
      reconcilerMetric('OldestDueAgeSeconds', 'Maximum').createAlarm(this, 'Overdue', {
        alarmDescription: `Work has been past its due time for over ${OVERDUE_ALARM_SECONDS}s: the reconciler cannot move it (see its logs)`,
        threshold: OVERDUE_ALARM_SECONDS,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      reconcilerMetric('Redriven', 'Sum').createAlarm(this, 'Redrives', {
        alarmDescription: 'The reconciler re-drove stuck work: a stage lost or stalled it (recovered; find out why)',
        threshold: 0,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      // The reconciler itself must run: no data for 10 minutes is a stalled safety net.
      reconcilerMetric('ReconcileErrors', 'SampleCount').createAlarm(this, 'ReconcilerSilent', {
        alarmDescription: 'The reconciler has not reported for 10 minutes',
        threshold: 1,
        evaluationPeriods: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
    );
  }
}
