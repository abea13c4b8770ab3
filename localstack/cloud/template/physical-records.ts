/**
 * What `Ref` and `Fn::GetAtt` return for each resource type of our template, locally: the return values
 * of the CloudFormation resource reference (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-template-resource-type-ref.html,
 * each type's "Return values"), built from the physical name (./physical-names.ts) and the local region
 * and account. Values only an emulator knows (a queue's URL, a table's stream ARN, a KMS key's id) are
 * recorded by provisioning when it creates the resource. A type or attribute missing here throws: the
 * local cloud never guesses a value.
 */
import { createHash } from 'node:crypto';
import { physicalName } from './physical-names';

export interface PhysicalRecord {
  /** The physical name, for resources with one (tables, queues, topics, buckets, roles, functions...). */
  name?: string;
  ref: unknown;
  attributes: Record<string, unknown>;
}

export interface RecordContext {
  stackName: string;
  region: string;
  accountId: string;
  /** The local API's base URL: the HTTP API's ApiEndpoint. */
  apiUrl: string;
  /** The name a data folder recorded for this logical id, if any (./stack-state.ts). */
  recordedName?: string;
}

/** A short stable id from the logical id, for resources whose ids AWS generates (an API's id, a VPC's). */
function shortId(logicalId: string, length = 10): string {
  return createHash('sha256').update(logicalId).digest('hex').slice(0, length);
}

type RecordBuilder = (logicalId: string, properties: Record<string, unknown>, ctx: RecordContext) => PhysicalRecord;

function named(type: string, logicalId: string, properties: Record<string, unknown>, ctx: RecordContext, nameProperty?: string): string {
  const given = nameProperty ? properties[nameProperty] : undefined;
  if (typeof given === 'string') return given;
  if (given !== undefined) throw new Error(`${logicalId}: the local cloud takes ${nameProperty} only as a literal string`);
  return ctx.recordedName ?? physicalName(ctx.stackName, logicalId, type);
}

const BUILDERS: Record<string, RecordBuilder> = {
  'AWS::DynamoDB::Table': (id, p, ctx) => {
    const name = named('AWS::DynamoDB::Table', id, p, ctx, 'TableName');
    // StreamArn is DynamoDB's (its label is the stream's creation time): recorded when the table is created.
    return { name, ref: name, attributes: { Arn: `arn:aws:dynamodb:${ctx.region}:${ctx.accountId}:table/${name}` } };
  },
  'AWS::SQS::Queue': (id, p, ctx) => {
    const name = named('AWS::SQS::Queue', id, p, ctx, 'QueueName');
    // Ref (the queue URL) and QueueUrl are recorded when the queue is created.
    return { name, ref: undefined, attributes: { Arn: `arn:aws:sqs:${ctx.region}:${ctx.accountId}:${name}`, QueueName: name } };
  },
  'AWS::SNS::Topic': (id, p, ctx) => {
    const name = named('AWS::SNS::Topic', id, p, ctx, 'TopicName');
    const arn = `arn:aws:sns:${ctx.region}:${ctx.accountId}:${name}`;
    return { name, ref: arn, attributes: { TopicArn: arn, TopicName: name } };
  },
  'AWS::S3::Bucket': (id, p, ctx) => {
    const name = named('AWS::S3::Bucket', id, p, ctx, 'BucketName');
    return {
      name,
      ref: name,
      attributes: {
        Arn: `arn:aws:s3:::${name}`,
        DomainName: `${name}.s3.amazonaws.com`,
        RegionalDomainName: `${name}.s3.${ctx.region}.amazonaws.com`,
      },
    };
  },
  'AWS::IAM::Role': (id, p, ctx) => {
    const name = named('AWS::IAM::Role', id, p, ctx, 'RoleName');
    const path = typeof p.Path === 'string' ? p.Path : '/';
    return {
      name,
      ref: name,
      attributes: { Arn: `arn:aws:iam::${ctx.accountId}:role${path}${name}`, RoleId: `AROA${shortId(id, 17).toUpperCase()}` },
    };
  },
  'AWS::IAM::Policy': (id) => ({ ref: id, attributes: {} }),
  'AWS::Lambda::Function': (id, p, ctx) => {
    const name = named('AWS::Lambda::Function', id, p, ctx, 'FunctionName');
    return { name, ref: name, attributes: { Arn: `arn:aws:lambda:${ctx.region}:${ctx.accountId}:function:${name}` } };
  },
  'AWS::Logs::LogGroup': (id, p, ctx) => {
    const name = named('AWS::Logs::LogGroup', id, p, ctx, 'LogGroupName');
    return { name, ref: name, attributes: { Arn: `arn:aws:logs:${ctx.region}:${ctx.accountId}:log-group:${name}:*` } };
  },
  'AWS::Events::Rule': (id, p, ctx) => {
    const name = typeof p.Name === 'string' ? p.Name : (ctx.recordedName ?? `${ctx.stackName}-${id}`.slice(0, 64));
    return { name, ref: name, attributes: { Arn: `arn:aws:events:${ctx.region}:${ctx.accountId}:rule/${name}` } };
  },
  'AWS::Scheduler::ScheduleGroup': (id, p, ctx) => {
    const name = named('AWS::Scheduler::ScheduleGroup', id, p, ctx, 'Name');
    return { name, ref: name, attributes: { Arn: `arn:aws:scheduler:${ctx.region}:${ctx.accountId}:schedule-group/${name}` } };
  },
  'AWS::SES::ConfigurationSet': (id, p, ctx) => {
    const name = named('AWS::SES::ConfigurationSet', id, p, ctx, 'Name');
    return { name, ref: name, attributes: {} };
  },
  'AWS::ApiGatewayV2::Api': (id, _p, ctx) => ({ ref: shortId(id), attributes: { ApiEndpoint: ctx.apiUrl, ApiId: shortId(id) } }),
  'AWS::ApiGatewayV2::Integration': (id) => ({ ref: shortId(id, 7), attributes: {} }),
  // KMS picks a key's id: Ref (the key id), Arn and KeyId are recorded when the KMS emulator creates it.
  'AWS::KMS::Key': () => ({ ref: undefined, attributes: {} }),
  'AWS::KMS::Alias': (_id, p) => ({ ref: p.AliasName, attributes: {} }),
  'AWS::SecretsManager::Secret': (id, p, ctx) => {
    const name = typeof p.Name === 'string' ? p.Name : `${id}-${shortId(id, 12)}`;
    return { ref: `arn:aws:secretsmanager:${ctx.region}:${ctx.accountId}:secret:${name}-${shortId(name, 6)}`, attributes: {} };
  },
  'AWS::ECS::Cluster': (id, _p, ctx) => {
    const name = `${ctx.stackName}-${id}`;
    return { name, ref: name, attributes: { Arn: `arn:aws:ecs:${ctx.region}:${ctx.accountId}:cluster/${name}` } };
  },
  'AWS::ECS::TaskDefinition': (id, _p, ctx) => ({
    ref: `arn:aws:ecs:${ctx.region}:${ctx.accountId}:task-definition/${ctx.stackName}${id}:1`,
    attributes: {},
  }),
  'AWS::EC2::VPC': (id) => ({ ref: `vpc-${shortId(id, 17)}`, attributes: {} }),
  'AWS::EC2::Subnet': (id) => ({ ref: `subnet-${shortId(id, 17)}`, attributes: {} }),
  'AWS::EC2::RouteTable': (id) => ({ ref: `rtb-${shortId(id, 17)}`, attributes: {} }),
  'AWS::EC2::InternetGateway': (id) => ({ ref: `igw-${shortId(id, 17)}`, attributes: {} }),
  'AWS::EC2::SecurityGroup': (id) => ({ ref: `sg-${shortId(id, 17)}`, attributes: { GroupId: `sg-${shortId(id, 17)}` } }),
  // The relay's load balancer: its DNS name is this machine (the relay and MX listen on loopback locally).
  'AWS::ElasticLoadBalancingV2::LoadBalancer': (id, _p, ctx) => ({
    ref: `arn:aws:elasticloadbalancing:${ctx.region}:${ctx.accountId}:loadbalancer/net/${shortId(id)}/${shortId(id, 16)}`,
    attributes: { DNSName: 'localhost' },
  }),
  'AWS::ElasticLoadBalancingV2::TargetGroup': (id, _p, ctx) => ({
    ref: `arn:aws:elasticloadbalancing:${ctx.region}:${ctx.accountId}:targetgroup/${shortId(id)}/${shortId(id, 16)}`,
    attributes: {},
  }),
};

/** The record of a resource from its name alone; throws for a type the local cloud does not know. */
export function physicalRecord(type: string, logicalId: string, properties: Record<string, unknown>, ctx: RecordContext): PhysicalRecord {
  const build = BUILDERS[type];
  if (!build) throw new Error(`the local cloud does not deploy ${type} (${logicalId})`);
  return build(logicalId, properties, ctx);
}
