/**
 * AWS's on-demand list prices in us-east-1, the only prices the cost model uses. Each names the AWS
 * page that publishes it and where and when the figure was read (AWS's pricing pages are rendered by
 * script, so the figures were read from copies that quote them, dated). Free tiers, Savings Plans and
 * volume tiers beyond the first are left out: a self-hosted deployment pays at least this much per unit.
 * Re-check them against the AWS pages when they are more than a year old.
 */

export interface Price {
  /** Dollars per unit. */
  usd: number;
  unit: string;
  source: string;
  /** When the figure was read, and from what. */
  read: string;
}

const perMillion = (usd: number) => usd / 1_000_000;

export const PRICES = {
  dynamoWriteUnit: {
    usd: perMillion(0.625),
    unit: 'write request unit (on-demand)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    read: '2025-07-21, airbyte.com "Amazon DynamoDB Pricing" (after the 50% on-demand cut of 2024-11-01)',
  },
  dynamoReadUnit: {
    usd: perMillion(0.125),
    unit: 'read request unit (on-demand)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    read: '2025-07-21, airbyte.com "Amazon DynamoDB Pricing"',
  },
  dynamoWriteCapacityHour: {
    usd: 0.00065,
    unit: 'provisioned write capacity unit-hour (one write unit a second for an hour)',
    source: 'https://aws.amazon.com/dynamodb/pricing/provisioned/',
    read: '2026-11, ../shared/research/cost-and-ceilings.md [P3] (unchanged by the on-demand cut of 2024-11-01)',
  },
  dynamoReadCapacityHour: {
    usd: 0.00013,
    unit: 'provisioned read capacity unit-hour',
    source: 'https://aws.amazon.com/dynamodb/pricing/provisioned/',
    read: '2026-11, ../shared/research/cost-and-ceilings.md [P3]',
  },
  lambdaRequest: {
    usd: perMillion(0.2),
    unit: 'Lambda request',
    source: 'https://aws.amazon.com/lambda/pricing/',
    read: '2024, cloudchipr.com "AWS Lambda Pricing Breakdown"',
  },
  lambdaArmGbSecond: {
    usd: 0.0000133334,
    unit: 'Lambda GB-second, arm64 (first 7.5 billion a month)',
    source: 'https://aws.amazon.com/lambda/pricing/',
    read: '2024, cloudchipr.com "AWS Lambda Pricing Breakdown"',
  },
  httpApiRequest: {
    usd: perMillion(1.0),
    unit: 'API Gateway HTTP API request (first 300 million a month, per 512 KB)',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    read: '2026, apigatewaycost.com',
  },
  sqsRequest: {
    usd: perMillion(0.4),
    unit: 'SQS standard request (each 64 KB chunk of a payload is one)',
    source: 'https://aws.amazon.com/sqs/pricing/',
    read: '2026-03, cloudburn.io "Amazon SQS Pricing"',
  },
  snsPublish: {
    usd: perMillion(0.5),
    unit: 'SNS standard publish (deliveries to SQS are free)',
    source: 'https://aws.amazon.com/sns/pricing/',
    read: '2026-06-13, factualminds.com "Amazon SNS Pricing"',
  },
  s3Put: {
    usd: 0.005 / 1000,
    unit: 'S3 Standard PUT, COPY, POST or LIST request',
    source: 'https://aws.amazon.com/s3/pricing/',
    read: '2026, c3x.dev "S3 request fees explained"',
  },
  s3Get: {
    usd: 0.0004 / 1000,
    unit: 'S3 Standard GET, HEAD and other requests',
    source: 'https://aws.amazon.com/s3/pricing/',
    read: '2026, c3x.dev "S3 request fees explained"',
  },
  kmsRequest: {
    usd: 0.03 / 10_000,
    unit: 'KMS request',
    source: 'https://aws.amazon.com/kms/pricing/',
    read: '2026-03, wring.co',
  },
  cloudwatchLogsIngestedGb: {
    usd: 0.5,
    unit: 'GB of log lines ingested by CloudWatch Logs (Lambda and Fargate, standard class, first 10 TB a month)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    read: '2025-05 and 2026-06, duckbillgroup.com and c3x.dev as quoted by ../shared/research/cost-and-ceilings.md [P5] [P6]',
  },
  schedulerInvocation: {
    usd: perMillion(1.0),
    unit: 'EventBridge Scheduler invocation (after 14 million free a month)',
    source: 'https://aws.amazon.com/eventbridge/pricing/',
    read: '2026-03, cloudburn.io "Amazon EventBridge Pricing"',
  },
  sesMessage: {
    usd: 0.1 / 1000,
    unit: "SES outbound message on the pay-as-you-go (a la carte) plan (SES's own charge, shown beside the rest, not in it)",
    source: 'https://aws.amazon.com/ses/pricing/',
    read: '2026-11, the SES pricing page as quoted by ../shared/research/cost-and-ceilings.md and peers-2026.md (SES1)',
  },
  sesMessageEssentials: {
    usd: 0.16 / 1000,
    unit: 'SES outbound message on the Essentials plan, the default for accounts new since 2026-07-21 (up to 10 million a month)',
    source: 'https://aws.amazon.com/ses/pricing/',
    read: '2026-11, the SES pricing page as quoted by ../shared/research/peers-2026.md (SES1)',
  },
} satisfies Record<string, Price>;

export type PriceName = keyof typeof PRICES;
