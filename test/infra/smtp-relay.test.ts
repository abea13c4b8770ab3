/**
 * The SMTP relay on AWS: Fargate tasks behind an internet-facing NLB on TCP 587 and, for the inbound MX
 * listener of the same process, TCP 25 (client address kept on both), the image an asset built from the
 * relay's bundle, STARTTLS material from Secrets Manager, and a task role with exactly SMTP_RELAY.grants
 * (least privilege, derived from infra/definitions/smtp-relay.ts).
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { API_GROUPS, SMTP_RELAY } from '#infra/definitions';
import { grantAccess, type ServiceResources } from '#infra/constructs/grants';
import type { MailserviceStack } from '#infra/stacks/mailservice-stack';
import { ENV } from '#shared/config/config';
import { MX_ENV } from '#shared/doors/mx/mx-config';
import { SMTP_ENV } from '#shared/doors/smtp/relay-config';
import { SESSIONS_METRIC } from '#shared/doors/smtp/sessions-metric';
import { METRICS_NAMESPACE } from '#shared/config/metrics';
import { relayMaxTasks } from '#infra/relay-scaling';
import { actionsOf, createStack, logicalId, resourcesOf, roleStatements, synth, type Statement, type Synthesised } from './helpers';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:smtp-tls-AbCdEf';

/** The resources a definition's grants refer to, from the stack's public constructs (as the stack builds them). */
function resourcesOfStack(stack: MailserviceStack): ServiceResources {
  return {
    table: stack.data.table,
    buckets: stack.data.buckets,
    queues: stack.messaging.queues,
    topics: stack.messaging.topics,
    configurationSetName: stack.email.configurationSetName,
    scheduling: stack.scheduling,
    secretsKey: stack.data.secretsKey,
  };
}

const sortedJson = (statements: Statement[]): string[] => statements.map((st) => JSON.stringify(st)).sort();

/** The MX listener's one grant beyond the send path: handing each stored message to the inbound worker. */
const MX_HANDOVER = { resource: { kind: 'queue', id: 'inbound' }, access: 'send' };

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

describe('SMTP relay, with its TLS secret given', () => {
  let s: Synthesised;
  beforeAll(() => {
    s = synth({ context: { smtpTlsSecretArn: SECRET_ARN } });
  });
  afterAll(() => s?.cleanup());

  test('an internet-facing NLB listens on TCP 587 and forwards to the tasks, keeping the client address', () => {
    s.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', { Type: 'network', Scheme: 'internet-facing' });
    s.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Port: 587, Protocol: 'TCP' });
    s.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Port: SMTP_RELAY.containerPort,
      Protocol: 'TCP',
      TargetType: 'ip',
      TargetGroupAttributes: Match.arrayWith([{ Key: 'preserve_client_ip.enabled', Value: 'true' }]),
    });
    s.template.hasOutput('SmtpHost', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'DNSName'] } });
  });

  test('the same NLB listens on TCP 25 for the MX and forwards to the container port 2525 of the relay, keeping the client address (SPF)', () => {
    expect(SMTP_RELAY.mx).toEqual({ port: 25, containerPort: 2525 });
    const resources = s.template.toJSON().Resources as Resources;
    const nlbId = logicalId(s.stack, s.stack.smtpRelay.loadBalancer);
    const listeners = Object.values(resources).filter(
      (r) => r.Type === 'AWS::ElasticLoadBalancingV2::Listener' && r.Properties.Port === 25,
    );
    expect(listeners).toHaveLength(1);
    const listener = listeners[0]!.Properties;
    expect(listener).toMatchObject({ Protocol: 'TCP', LoadBalancerArn: { Ref: nlbId } });
    expect(listener.DefaultActions).toHaveLength(1);
    expect(listener.DefaultActions[0].Type).toBe('forward');
    const targetGroupId = (listener.DefaultActions[0].TargetGroupArn as { Ref: string }).Ref;
    // Its own target group, health-checked by a TCP connect to the MX port (the traffic port: no other port set).
    expect(resources[targetGroupId]?.Properties).toMatchObject({
      Port: 2525,
      Protocol: 'TCP',
      TargetType: 'ip',
      HealthCheckProtocol: 'TCP',
      HealthCheckIntervalSeconds: SMTP_RELAY.healthCheck.intervalSeconds,
      HealthyThresholdCount: SMTP_RELAY.healthCheck.healthyThreshold,
      UnhealthyThresholdCount: SMTP_RELAY.healthCheck.unhealthyThreshold,
      TargetGroupAttributes: expect.arrayContaining([{ Key: 'preserve_client_ip.enabled', Value: 'true' }]),
    });
    expect(resources[targetGroupId]!.Properties.HealthCheckPort ?? 'traffic-port').toBe('traffic-port');
    // The service registers the relay container's MX port in that target group, beside the submission port in its own.
    const service = Object.values(resources).find((r) => r.Type === 'AWS::ECS::Service')!.Properties;
    expect(service.LoadBalancers).toHaveLength(2);
    expect(service.LoadBalancers).toContainEqual({ ContainerName: 'relay', ContainerPort: 2525, TargetGroupArn: { Ref: targetGroupId } });
    expect(service.LoadBalancers).toContainEqual(
      expect.objectContaining({ ContainerName: 'relay', ContainerPort: SMTP_RELAY.containerPort }),
    );
    // The MX host is the same load balancer.
    const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown; Description?: string }>;
    expect(outputs.MxHost?.Value).toEqual({ 'Fn::GetAtt': [nlbId, 'DNSName'] });
    expect(outputs.MxHost?.Value).toEqual(outputs.SmtpHost?.Value);
    expect(outputs.MxHost?.Description).toContain('INBOUND_MX_HOST');
  });

  test('a Fargate service of the definition desired count, rolled back by the circuit breaker', () => {
    s.template.hasResourceProperties('AWS::ECS::Service', {
      LaunchType: 'FARGATE',
      DesiredCount: SMTP_RELAY.desiredCount,
      DeploymentConfiguration: Match.objectLike({ DeploymentCircuitBreaker: { Enable: true, Rollback: true } }),
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
    });
  });

  test('the task runs the image asset with the relay settings, the TLS secret and a stop timeout', () => {
    const definitions = s.template.findResources('AWS::ECS::TaskDefinition');
    expect(Object.keys(definitions)).toHaveLength(1);
    const task = Object.values(definitions)[0]!.Properties;
    expect(task).toMatchObject({ Cpu: String(SMTP_RELAY.cpu), Memory: String(SMTP_RELAY.memoryMiB), RequiresCompatibilities: ['FARGATE'] });
    const [container] = task.ContainerDefinitions;
    // An asset image: built from dist/functions/smtp-relay (bundle + Dockerfile) and pushed by cdk deploy.
    expect(JSON.stringify(container.Image)).toContain('cdk-hnb659fds-container-assets');
    expect(container.PortMappings).toEqual([
      { ContainerPort: SMTP_RELAY.containerPort, Protocol: 'tcp' },
      { ContainerPort: SMTP_RELAY.mx.containerPort, Protocol: 'tcp' },
    ]);
    expect(container.StopTimeout).toBe(SMTP_RELAY.stopTimeoutSeconds);
    const env = Object.fromEntries((container.Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
    expect(env).toMatchObject({
      SMTP_PORT: String(SMTP_RELAY.containerPort),
      // Set: the process starts the MX listener too.
      MX_PORT: String(SMTP_RELAY.mx.containerPort),
      [ENV.tableName]: expect.anything(),
      [ENV.mailBucket]: expect.anything(),
      [ENV.scheduleGroup]: expect.anything(),
      [ENV.inboundQueueUrl]: { Ref: logicalId(s.stack, s.stack.messaging.queues.inbound) },
    });
    const secrets = Object.fromEntries(
      (container.Secrets as { Name: string; ValueFrom: unknown }[]).map((e) => [e.Name, JSON.stringify(e.ValueFrom)]),
    );
    expect(Object.keys(secrets).sort()).toEqual(['SMTP_TLS_CERT', 'SMTP_TLS_KEY']);
    expect(secrets.SMTP_TLS_KEY).toContain(`${SECRET_ARN}:key::`);
    expect(secrets.SMTP_TLS_CERT).toContain(`${SECRET_ARN}:cert::`);
  });

  test('the task role holds exactly the definition grants: table, mail bucket, scheduler, send to the inbound queue; no SES, SNS, KMS or wildcards', () => {
    const task = Object.values(s.template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
    const roleId = (task.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = roleStatements(s.template, roleId);
    const actions = new Set(statements.flatMap(actionsOf));
    for (const action of [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      's3:PutObject',
      's3:GetObject*',
      'scheduler:CreateSchedule',
      'iam:PassRole',
      'sqs:SendMessage',
    ]) {
      expect({ action, allowed: actions.has(action) }).toEqual({ action, allowed: true });
    }
    for (const action of actions) expect(action).not.toMatch(/^(ses|sns|kms):/);
    // SQS: the MX listener sends to the inbound queue, and that alone (never receives or deletes, never another queue).
    const inboundArn = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues.inbound), 'Arn'] };
    const sqsStatements = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    expect(sqsStatements.flatMap(actionsOf).sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(sqsStatements.flatMap(resourcesOf)).toEqual(sqsStatements.map(() => inboundArn));
    for (const statement of statements) {
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/^(\*|[a-z0-9-]+:\*)$/);
      expect(resourcesOf(statement)).not.toContain('*');
    }
    const grantKey = (g: { resource: { kind: string; id?: string }; access: string }): string =>
      [g.resource.kind, g.resource.id, g.access].filter(Boolean).join(':');
    expect(SMTP_RELAY.grants.map(grantKey).sort()).toEqual([
      'bucket:mail:readWrite',
      'queue:inbound:send',
      'scheduler:schedule',
      'table:readWrite',
    ]);
    // The task role is not the execution role (which only pulls the image, writes logs and reads the secret).
    expect(roleId).not.toBe((task.ExecutionRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
  });

  test('the NLB health-checks each task with a TCP connect to the container port; logs go to CloudWatch', () => {
    s.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Port: SMTP_RELAY.containerPort,
      HealthCheckProtocol: SMTP_RELAY.healthCheck.protocol,
      HealthCheckIntervalSeconds: SMTP_RELAY.healthCheck.intervalSeconds,
      HealthyThresholdCount: SMTP_RELAY.healthCheck.healthyThreshold,
      UnhealthyThresholdCount: SMTP_RELAY.healthCheck.unhealthyThreshold,
    });
    const task = Object.values(s.template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
    expect(task.ContainerDefinitions[0].LogConfiguration).toMatchObject({
      LogDriver: 'awslogs',
      Options: expect.objectContaining({ 'awslogs-stream-prefix': 'smtp-relay' }),
    });
  });

  test('the TLS and port variables of the definition are the ones the relay and the MX listener read', () => {
    expect(SMTP_RELAY.tlsSecretEnv).toEqual({ key: SMTP_ENV.tlsKey, cert: SMTP_ENV.tlsCert });
    expect(SMTP_RELAY.environment[SMTP_ENV.port]).toBe(String(SMTP_RELAY.containerPort));
    expect(SMTP_RELAY.environment[MX_ENV.port]).toBe(String(SMTP_RELAY.mx.containerPort));
  });

  test('the execution role reads only the TLS secret (no table, bucket or scheduler access)', () => {
    const task = Object.values(s.template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
    const executionRoleId = (task.ExecutionRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = roleStatements(s.template, executionRoleId);
    const secretStatements = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('secretsmanager:')));
    expect(secretStatements.flatMap(resourcesOf)).toEqual([SECRET_ARN]);
    for (const action of statements.flatMap(actionsOf)) expect(action).not.toMatch(/^(dynamodb|s3|scheduler|iam|sqs|ses|kms):/);
  });

  test('security groups: 587 and 25 open on the load balancer, both container ports open on the tasks, to anyone and to the load balancer', () => {
    const resources = s.template.toJSON().Resources as Resources;
    const ingress = (id: string): { CidrIp?: string; FromPort: number; ToPort: number; IpProtocol: string }[] =>
      resources[id]!.Properties.SecurityGroupIngress ?? [];
    const nlbSecurityGroupIds = (
      resources[logicalId(s.stack, s.stack.smtpRelay.loadBalancer)]!.Properties.SecurityGroups as { 'Fn::GetAtt': [string, string] }[]
    ).map((g) => g['Fn::GetAtt'][0]);
    expect(nlbSecurityGroupIds).toHaveLength(1);
    const nlbSecurityGroupId = nlbSecurityGroupIds[0]!;
    const service = Object.values(resources).find((r) => r.Type === 'AWS::ECS::Service')!.Properties;
    const taskSecurityGroupId = service.NetworkConfiguration.AwsvpcConfiguration.SecurityGroups[0]['Fn::GetAtt'][0] as string;
    const fromAnywhere = (port: number) =>
      expect.objectContaining({ CidrIp: '0.0.0.0/0', FromPort: port, ToPort: port, IpProtocol: 'tcp' });

    expect(ingress(nlbSecurityGroupId)).toEqual(expect.arrayContaining([fromAnywhere(587), fromAnywhere(25)]));
    // Preserved client addresses reach the tasks as they are: both container ports from anywhere...
    expect(ingress(taskSecurityGroupId)).toEqual(expect.arrayContaining([fromAnywhere(SMTP_RELAY.containerPort), fromAnywhere(2525)]));
    // ...and from the load balancer's security group (its health checks).
    for (const port of [SMTP_RELAY.containerPort, 2525]) {
      s.template.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
        GroupId: { 'Fn::GetAtt': [taskSecurityGroupId, 'GroupId'] },
        SourceSecurityGroupId: { 'Fn::GetAtt': [nlbSecurityGroupId, 'GroupId'] },
        FromPort: port,
        ToPort: port,
        IpProtocol: 'tcp',
      });
    }
    // No NAT gateway: tasks reach AWS APIs with their public IPs.
    s.template.resourceCountIs('AWS::EC2::NatGateway', 0);
  });

  test('the service scales from 2 tasks to 10 on CPU and on open SMTP sessions per task, the metric the relay writes', () => {
    const scaling = SMTP_RELAY.autoscaling;
    s.template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      ServiceNamespace: 'ecs',
      ScalableDimension: 'ecs:service:DesiredCount',
      MinCapacity: 2,
      MaxCapacity: 10,
    });
    expect(scaling).toMatchObject({ minTasks: 2, maxTasks: 10 });
    const policies = Object.values(s.template.findResources('AWS::ApplicationAutoScaling::ScalingPolicy')).map(
      (policy) =>
        (policy as { Properties: { PolicyType: string; TargetTrackingScalingPolicyConfiguration: Record<string, any> } }).Properties,
    );
    expect(policies.map((policy) => policy.PolicyType)).toEqual(['TargetTrackingScaling', 'TargetTrackingScaling']);
    const configs = policies.map((policy) => policy.TargetTrackingScalingPolicyConfiguration);
    const cooldowns = { ScaleInCooldown: scaling.scaleInCooldownSeconds, ScaleOutCooldown: scaling.scaleOutCooldownSeconds };
    expect(configs).toContainEqual({
      PredefinedMetricSpecification: { PredefinedMetricType: 'ECSServiceAverageCPUUtilization' },
      TargetValue: scaling.cpuTargetPercent,
      ...cooldowns,
    });
    expect(configs).toContainEqual({
      CustomizedMetricSpecification: {
        Namespace: METRICS_NAMESPACE,
        MetricName: SESSIONS_METRIC.name,
        Dimensions: [{ Name: 'Service', Value: SESSIONS_METRIC.dimension.Service }],
        Statistic: 'Average',
      },
      TargetValue: scaling.sessionsPerTaskTarget,
      ...cooldowns,
    });
    // Well under what one task accepts (SMTP_MAX_CLIENTS), so a burst while a task starts still finds room.
    expect(scaling.sessionsPerTaskTarget).toBeLessThan(Number(SMTP_RELAY.environment.SMTP_MAX_CLIENTS));
    // A task leaving on scale-in drains: the load balancer waits for its sessions, ECS gives it the stop timeout.
    s.template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      TargetGroupAttributes: Match.arrayWith([
        { Key: 'deregistration_delay.timeout_seconds', Value: String(SMTP_RELAY.stopTimeoutSeconds) },
      ]),
    });
  });
});

describe('context smtpRelayMaxTasks (the most relay tasks the service scales out to)', () => {
  test("sets the scalable target's maximum", () => {
    const wide = synth({ context: { smtpTlsSecretArn: SECRET_ARN, smtpRelayMaxTasks: 30 } });
    try {
      wide.template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', { MinCapacity: 2, MaxCapacity: 30 });
    } finally {
      wide.cleanup();
    }
  });

  test('refuses a count below the tasks always running or above the bound, naming both', () => {
    expect(relayMaxTasks(undefined)).toBe(SMTP_RELAY.autoscaling.maxTasks);
    expect(relayMaxTasks('2')).toBe(2);
    for (const bad of [1, 101, 'many', 2.5]) {
      expect(() => relayMaxTasks(bad)).toThrow(/smtpRelayMaxTasks must be a whole number from 2 \(the tasks always running\) to 100/);
    }
  });
});

describe('SMTP relay, before a TLS secret is given', () => {
  let s: Synthesised;
  beforeAll(() => {
    s = synth();
  });
  afterAll(() => s?.cleanup());

  test('creates an empty secret to fill in, outputs its ARN, and runs no task (no scaling that would start one)', () => {
    s.template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    s.template.hasResourceProperties('AWS::ECS::Service', { DesiredCount: 0 });
    s.template.resourceCountIs('AWS::ApplicationAutoScaling::ScalableTarget', 0);
    s.template.hasOutput('SmtpTlsSecretArn', { Description: Match.stringLikeRegexp('smtpTlsSecretArn') });
  });
});

describe('SMTP relay task role = its grants, exactly', () => {
  test('its policy statements are those grantAccess makes of SMTP_RELAY.grants, and its environment carries their resources', () => {
    const created = createStack({ context: { smtpTlsSecretArn: SECRET_ARN } });
    try {
      // A reference role granted SMTP_RELAY.grants by the helper the functions use: the task role must hold the same statements, no more.
      const reference = new iam.Role(created.stack, 'ReferenceRelayRole', {
        assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      });
      const env = grantAccess(created.stack, reference, SMTP_RELAY.grants, resourcesOfStack(created.stack));
      const template = Template.fromStack(created.stack);
      const task = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
      const taskRoleId = (task.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const expected = roleStatements(template, created.stack.getLogicalId(reference.node.defaultChild as iam.CfnRole));
      expect(expected.length).toBeGreaterThan(0);
      expect(sortedJson(roleStatements(template, taskRoleId))).toEqual(sortedJson(expected));

      const containerEnv = Object.fromEntries(
        (task.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]),
      );
      for (const [name, value] of Object.entries(env))
        expect({ name, value: containerEnv[name] }).toEqual({ name, value: created.stack.resolve(value) });
    } finally {
      created.cleanup();
    }
  });

  test('the relay is a second door to the send core: never granted more than the emails API group, but for the MX hand-over to the inbound queue', () => {
    const emails = API_GROUPS.find((g) => g.name === 'emails')!;
    const key = (g: { resource: object; access: string }): string => JSON.stringify([g.resource, g.access]);
    const emailsGrants = new Set(emails.grants.map(key));
    const beyond = SMTP_RELAY.grants.filter((grant) => !emailsGrants.has(key(grant)));
    expect(beyond.map(key)).toEqual([key(MX_HANDOVER)]);
  });
});
