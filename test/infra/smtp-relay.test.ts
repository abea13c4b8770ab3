/**
 * The SMTP relay on AWS: Fargate tasks behind an internet-facing NLB on TCP 587 (client address kept),
 * the image an asset built from the relay's bundle, STARTTLS material from Secrets Manager, and a task
 * role with exactly SMTP_RELAY.grants (least privilege, derived from infra/definitions.ts).
 */
import { Match } from 'aws-cdk-lib/assertions';
import { SMTP_RELAY } from '../../infra/definitions';
import { ENV } from '../../shared/config';
import { actionsOf, resourcesOf, roleStatements, synth, type Synthesised } from './helpers';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:smtp-tls-AbCdEf';

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
