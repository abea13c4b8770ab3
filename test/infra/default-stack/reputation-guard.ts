/**
 * The reputation guard in the template (docs/deliverability.md, "Reputation guard"; docs/deploy.md, "Reputation
 * alarms"): both configuration sets publish reputation metrics; two alarms watch SES's account-level
 * Reputation.BounceRate / Reputation.ComplaintRate at the deployment's thresholds (context, else the defaults;
 * never at or over AWS's review rates); the stats worker reads every email and the events worker account items.
 */
import { STREAM_WORKERS } from '#infra/definitions';
import { AWS_REVIEW, DEFAULT_BRAKE } from '#shared/domain/reputation/brake';
import { functionEnv, synth, defaultStack, type Synthesised } from '../helpers';

let s: Synthesised;

beforeAll(() => {
  s = defaultStack();
});

afterAll(() => s.cleanup());

const reputationAlarms = (template: Synthesised['template']) =>
  Object.values(template.findResources('AWS::CloudWatch::Alarm'))
    .map((alarm) => alarm.Properties)
    .filter((alarm) => alarm.Namespace === 'AWS/SES')
    .map(({ MetricName, Threshold, ComparisonOperator, Statistic, Period, Dimensions, AlarmActions }) => ({
      MetricName,
      Threshold,
      ComparisonOperator,
      Statistic,
      Period,
      Dimensions,
      AlarmActions,
    }));

it('both configuration sets publish reputation metrics', () => {
  const sets = Object.values(s.template.findResources('AWS::SES::ConfigurationSet'));
  expect(sets).toHaveLength(2);
  for (const set of sets) expect(set.Properties.ReputationOptions).toEqual({ ReputationMetricsEnabled: true });
});

it("alarms on SES's account-level bounce and complaint rates at the brake's default thresholds, below AWS's review rates", () => {
  const common = {
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    Statistic: 'Maximum',
    Period: 900,
    Dimensions: undefined,
    AlarmActions: undefined,
  };
  expect(reputationAlarms(s.template)).toEqual([
    { MetricName: 'Reputation.BounceRate', Threshold: DEFAULT_BRAKE.bounceRate, ...common },
    { MetricName: 'Reputation.ComplaintRate', Threshold: DEFAULT_BRAKE.complaintRate, ...common },
  ]);
  expect(DEFAULT_BRAKE.bounceRate).toBeLessThan(AWS_REVIEW.bounceRate);
  expect(DEFAULT_BRAKE.complaintRate).toBeLessThan(AWS_REVIEW.complaintRate);
});

it('takes the thresholds from context (the settings, in camel case), refusing values not under AWS review rates', () => {
  const lowered = synth({ context: { reputationBounceRate: '0.03', reputationComplaintRate: '0.0005', reputationOffenderMinSent: '20' } });
  const refused = synth({ context: { reputationBounceRate: '0.06', reputationComplaintRate: 'lots' } });
  try {
    expect(reputationAlarms(lowered.template).map((alarm) => alarm.Threshold)).toEqual([0.03, 0.0005]);
    // The stats worker gets the same settings.
    expect(functionEnv(lowered.template, lowered.stack, 'tenant-stats')).toMatchObject({
      REPUTATION_BOUNCE_RATE: '0.03',
      REPUTATION_COMPLAINT_RATE: '0.0005',
      REPUTATION_OFFENDER_MIN_SENT: '20',
    });
    expect(reputationAlarms(refused.template).map((alarm) => alarm.Threshold)).toEqual([
      DEFAULT_BRAKE.bounceRate,
      DEFAULT_BRAKE.complaintRate,
    ]);
  } finally {
    lowered.cleanup();
    refused.cleanup();
  }
});

it('the stats worker reads every email write, the events worker tenant and account items (no fifth stream consumer)', () => {
  expect(STREAM_WORKERS).toHaveLength(4);
  const filters = Object.fromEntries(STREAM_WORKERS.map((worker) => [worker.name, worker.filters]));
  expect(filters['tenant-stats']).toEqual([{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['email'] } } } }]);
  expect(filters['tenant-events']).toEqual([{ eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: ['tenant', 'account'] } } } }]);
});
