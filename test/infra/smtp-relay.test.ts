/**
 * The SMTP relay on AWS: Fargate tasks behind an internet-facing NLB on TCP 587 (client address kept),
 * the image an asset built from the relay's bundle, STARTTLS material from Secrets Manager, and a task
 * role with exactly SMTP_RELAY.grants (least privilege, derived from infra/definitions.ts).
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { API_GROUPS, SMTP_RELAY } from '../../infra/definitions';
import { grantAccess, type ServiceResources } from '../../infra/constructs/grants';
import type { MailserviceStack } from '../../infra/stacks/mailservice-stack';
import { ENV } from '../../shared/config';
import { SMTP_ENV } from '../../shared/smtp/relay-config';
import { actionsOf, createStack, resourcesOf, roleStatements, synth, type Statement, type Synthesised } from './helpers';

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
    expect(container.PortMappings).toEqual([{ ContainerPort: SMTP_RELAY.containerPort, Protocol: 'tcp' }]);
    expect(container.StopTimeout).toBe(SMTP_RELAY.stopTimeoutSeconds);
    const env = Object.fromEntries((container.Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
    expect(env).toMatchObject({ SMTP_PORT: String(SMTP_RELAY.containerPort), [ENV.tableName]: expect.anything(), [ENV.mailBucket]: expect.anything(), [ENV.scheduleGroup]: expect.anything() });
    const secrets = Object.fromEntries((container.Secrets as { Name: string; ValueFrom: unknown }[]).map((e) => [e.Name, JSON.stringify(e.ValueFrom)]));
    expect(Object.keys(secrets).sort()).toEqual(['SMTP_TLS_CERT', 'SMTP_TLS_KEY']);
    expect(secrets.SMTP_TLS_KEY).toContain(`${SECRET_ARN}:key::`);
    expect(secrets.SMTP_TLS_CERT).toContain(`${SECRET_ARN}:cert::`);
  });

  test('the task role holds exactly the definition grants: table, mail bucket, scheduler; no SES, SQS, KMS or wildcards', () => {
    const task = Object.values(s.template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
    const roleId = (task.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = roleStatements(s.template, roleId);
    const actions = new Set(statements.flatMap(actionsOf));
    for (const action of ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 's3:PutObject', 's3:GetObject*', 'scheduler:CreateSchedule', 'iam:PassRole']) {
      expect({ action, allowed: actions.has(action) }).toEqual({ action, allowed: true });
    }
    for (const action of actions) expect(action).not.toMatch(/^(ses|sqs|sns|kms):/);
    for (const statement of statements) {
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/^(\*|[a-z0-9-]+:\*)$/);
      expect(resourcesOf(statement)).not.toContain('*');
    }
    expect(SMTP_RELAY.grants.map((g) => `${g.resource.kind}:${g.access}`).sort()).toEqual(['bucket:readWrite', 'scheduler:schedule', 'table:readWrite']);
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
    expect(task.ContainerDefinitions[0].LogConfiguration).toMatchObject({ LogDriver: 'awslogs', Options: expect.objectContaining({ 'awslogs-stream-prefix': 'smtp-relay' }) });
  });

  test('the TLS variables of the definition are the ones the relay reads', () => {
    expect(SMTP_RELAY.tlsSecretEnv).toEqual({ key: SMTP_ENV.tlsKey, cert: SMTP_ENV.tlsCert });
    expect(SMTP_RELAY.environment[SMTP_ENV.port]).toBe(String(SMTP_RELAY.containerPort));
  });

  test('the execution role reads only the TLS secret (no table, bucket or scheduler access)', () => {
    const task = Object.values(s.template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
    const executionRoleId = (task.ExecutionRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = roleStatements(s.template, executionRoleId);
    const secretStatements = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('secretsmanager:')));
    expect(secretStatements.flatMap(resourcesOf)).toEqual([SECRET_ARN]);
    for (const action of statements.flatMap(actionsOf)) expect(action).not.toMatch(/^(dynamodb|s3|scheduler|iam|sqs|ses|kms):/);
  });

  test('security groups: 587 open on the load balancer, the container port open on the tasks', () => {
    s.template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      SecurityGroupIngress: Match.arrayWith([Match.objectLike({ CidrIp: '0.0.0.0/0', FromPort: 587, ToPort: 587, IpProtocol: 'tcp' })]),
    });
    s.template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      SecurityGroupIngress: Match.arrayWith([Match.objectLike({ CidrIp: '0.0.0.0/0', FromPort: SMTP_RELAY.containerPort, ToPort: SMTP_RELAY.containerPort, IpProtocol: 'tcp' })]),
    });
    // No NAT gateway: tasks reach AWS APIs with their public IPs.
    s.template.resourceCountIs('AWS::EC2::NatGateway', 0);
  });
});

describe('SMTP relay, before a TLS secret is given', () => {
  let s: Synthesised;
  beforeAll(() => {
    s = synth();
  });
  afterAll(() => s?.cleanup());

  test('creates an empty secret to fill in, outputs its ARN, and runs no task', () => {
    s.template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    s.template.hasResourceProperties('AWS::ECS::Service', { DesiredCount: 0 });
    s.template.hasOutput('SmtpTlsSecretArn', { Description: Match.stringLikeRegexp('smtpTlsSecretArn') });
  });
});

describe('SMTP relay task role = its grants, exactly', () => {
  test('its policy statements are those grantAccess makes of SMTP_RELAY.grants, and its environment carries their resources', () => {
    const created = createStack({ context: { smtpTlsSecretArn: SECRET_ARN } });
    try {
      // A reference role granted SMTP_RELAY.grants by the helper the functions use: the task role must hold the same statements, no more.
      const reference = new iam.Role(created.stack, 'ReferenceRelayRole', { assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com') });
      const env = grantAccess(created.stack, reference, SMTP_RELAY.grants, resourcesOfStack(created.stack));
      const template = Template.fromStack(created.stack);
      const task = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
      const taskRoleId = (task.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const expected = roleStatements(template, created.stack.getLogicalId(reference.node.defaultChild as iam.CfnRole));
      expect(expected.length).toBeGreaterThan(0);
      expect(sortedJson(roleStatements(template, taskRoleId))).toEqual(sortedJson(expected));

      const containerEnv = Object.fromEntries((task.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
      for (const [name, value] of Object.entries(env)) expect({ name, value: containerEnv[name] }).toEqual({ name, value: created.stack.resolve(value) });
    } finally {
      created.cleanup();
    }
  });

  test('the relay is a second door to the send core: never granted more than the emails API group', () => {
    const emails = API_GROUPS.find((g) => g.name === 'emails')!;
    const key = (g: { resource: object; access: string }): string => JSON.stringify([g.resource, g.access]);
    const emailsGrants = new Set(emails.grants.map(key));
    for (const grant of SMTP_RELAY.grants) expect({ grant, inEmailsGroup: emailsGrants.has(key(grant)) }).toEqual({ grant, inEmailsGroup: true });
  });
});
