/**
 * The SMTP relay on AWS (docs/deploy.md, "SMTP relay on AWS"): Fargate tasks running the relay's bundle
 * behind an internet-facing Network Load Balancer listening on TCP 587 (TLS is STARTTLS inside the SMTP
 * session, so the load balancer passes TCP through and the task terminates TLS with the certificate from
 * Secrets Manager; an ACM certificate on the NLB would need implicit TLS, which port 587 clients do not
 * speak). The same tasks and process run the inbound MX listener (docs/inbound.md): a second listener on
 * TCP 25, forwarded to the container's MX port, with its own target group and health check, so a task
 * failing either port is taken out of that port's rotation only.
 *
 * Networking: a VPC of two public subnets, tasks with public IPs reaching the AWS APIs directly (no NAT
 * gateway to pay for); the NLB keeps the client's address (target attribute preserve_client_ip) so the
 * relay's per-address AUTH throttle and the MX's SPF checks see real clients, hence the task's security
 * group allows both container ports from anywhere. Least privilege: the task role gets exactly
 * SMTP_RELAY.grants (grantAccess, as functions).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '#shared/config/metrics';
import { SESSIONS_METRIC } from '#shared/doors/smtp/sessions-metric';
import { SMTP_RELAY } from '../definitions';
import { BUNDLE_FILE, functionCodeDir } from '../functions';
import { grantAccess, type ServiceResources } from './grants';
import { acknowledgeRule, acknowledgeWildcardResources } from './nag';

export interface SmtpRelayProps {
  /** Where `npm run build` put the relay's bundle and Dockerfile (`<functionsDir>/smtp-relay/`). */
  functionsDir: string;
  resources: ServiceResources;
  /** Environment every function gets (settings such as SANDBOX_DOMAIN). */
  environment: Record<string, string>;
  /**
   * ARN of a Secrets Manager secret holding `{"key": "<PEM>", "cert": "<PEM>"}` for STARTTLS. Without it the
   * stack creates an empty secret to fill in and runs no task (desired count 0) until deployed with it.
   */
  tlsSecretArn?: string;
  /** Where the VPC's flow logs go (cdk-nag VPC7), under `vpc-flow-logs/`. */
  logsBucket: s3.IBucket;
  /** The most tasks the service scales out to (context `smtpRelayMaxTasks`, infra/relay-scaling.ts). */
  maxTasks: number;
}

export class SmtpRelay extends Construct {
  readonly service: ecs.FargateService;
  readonly loadBalancer: elbv2.NetworkLoadBalancer;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly tlsSecret: secretsmanager.ISecret;

  constructor(scope: Construct, id: string, props: SmtpRelayProps) {
    super(scope, id);
    const contextDir = functionCodeDir(props.functionsDir, SMTP_RELAY.name);
    for (const file of [BUNDLE_FILE, 'Dockerfile']) {
      if (!fs.existsSync(path.join(contextDir, file))) {
        throw new Error(`No image context for the SMTP relay: ${path.join(contextDir, file)} is missing. Run \`npm run build\` first.`);
      }
    }

    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      // Nothing uses the default security group (tasks and NLB have their own); restricting it would add a
      // custom-resource Lambda to the stack for no gain.
      restrictDefaultSecurityGroup: false,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }],
    });
    // Every accepted and rejected connection of the relay's VPC, for abuse investigations (who connected to 25 and 587).
    vpc.addFlowLog('FlowLog', {
      destination: ec2.FlowLogDestination.toS3(props.logsBucket, 'vpc-flow-logs/'),
      trafficType: ec2.FlowLogTrafficType.ALL,
    });
    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });

    this.tlsSecret = props.tlsSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'TlsSecret', props.tlsSecretArn)
      : new secretsmanager.Secret(this, 'TlsSecret', {
          description: 'mailservice SMTP relay STARTTLS certificate: {"key": "<PEM private key>", "cert": "<PEM certificate chain>"}',
          removalPolicy: RemovalPolicy.RETAIN,
        });
    if (this.tlsSecret instanceof secretsmanager.Secret) {
      acknowledgeRule(
        this.tlsSecret.node.defaultChild as secretsmanager.CfnSecret,
        'SMG4',
        'The secret holds the STARTTLS certificate of the user\'s SMTP host name, which only its certificate authority can renew: a rotation Lambda cannot issue it. The user puts the renewed PEMs in the secret (docs/deploy.md, "SMTP relay on AWS").',
      );
    }

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: SMTP_RELAY.cpu,
      memoryLimitMiB: SMTP_RELAY.memoryMiB,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.X86_64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const container = this.taskDefinition.addContainer('relay', {
      image: ecs.ContainerImage.fromAsset(contextDir),
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: 'smtp-relay' }),
      environment: { ...props.environment, ...SMTP_RELAY.environment },
      secrets: {
        [SMTP_RELAY.tlsSecretEnv.key]: ecs.Secret.fromSecretsManager(this.tlsSecret, 'key'),
        [SMTP_RELAY.tlsSecretEnv.cert]: ecs.Secret.fromSecretsManager(this.tlsSecret, 'cert'),
      },
      portMappings: [
        { containerPort: SMTP_RELAY.containerPort, protocol: ecs.Protocol.TCP },
        { containerPort: SMTP_RELAY.mx.containerPort, protocol: ecs.Protocol.TCP },
      ],
      stopTimeout: Duration.seconds(SMTP_RELAY.stopTimeoutSeconds),
    });
    const env = grantAccess(this, this.taskDefinition.taskRole, SMTP_RELAY.grants, props.resources);
    for (const [key, value] of Object.entries(env)) container.addEnvironment(key, value);
    acknowledgeRule(
      this.taskDefinition.node.defaultChild as ecs.CfnTaskDefinition,
      'ECS2',
      'The environment holds settings and resource names (table, queues, bucket, configuration set), none of them secret; the one secret, the TLS key and certificate, comes from Secrets Manager (container secrets).',
    );
    acknowledgeWildcardResources(
      this.taskDefinition.obtainExecutionRole(),
      ['*'],
      'ecr:GetAuthorizationToken, which ECS needs to pull the relay image, has no resource-level permission: AWS requires Resource "*" (https://docs.aws.amazon.com/AmazonECR/latest/userguide/security_iam_id-based-policy-examples.html); the image pulls themselves are on the asset repository.',
    );

    const securityGroup = new ec2.SecurityGroup(this, 'TaskSecurityGroup', {
      vpc,
      description: 'SMTP relay tasks: submission and MX from anywhere (client addresses are preserved)',
    });
    securityGroup.addIngressRule(
      ec2.Peer.anyIpv4(),
      ec2.Port.tcp(SMTP_RELAY.containerPort),
      'SMTP submission (the NLB forwards 587 here, keeping the client address)',
    );
    securityGroup.addIngressRule(
      ec2.Peer.anyIpv4(),
      ec2.Port.tcp(SMTP_RELAY.mx.containerPort),
      'Inbound MX (the NLB forwards 25 here, keeping the client address)',
    );
    acknowledgeRule(
      securityGroup.node.defaultChild as ec2.CfnSecurityGroup,
      'EC23',
      'Public SMTP: mail clients submit from anywhere and any mail server delivers to the MX from anywhere; the load balancer keeps the client address (preserve_client_ip), so the task must accept its two container ports from 0.0.0.0/0. Abuse is handled by SMTP AUTH, its per-address throttle and SPF checks (docs/smtp.md, docs/inbound.md).',
    );

    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.tlsSecretArn ? SMTP_RELAY.desiredCount : 0,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      securityGroups: [securityGroup],
      circuitBreaker: { enable: true, rollback: true },
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
    });

    if (props.tlsSecretArn) this.scaleOnLoad(props.maxTasks);

    this.loadBalancer = new elbv2.NetworkLoadBalancer(this, 'Nlb', {
      vpc,
      internetFacing: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
    });
    acknowledgeRule(
      this.loadBalancer.node.defaultChild as elbv2.CfnLoadBalancer,
      'ELB2',
      "A Network Load Balancer writes access logs only for TLS listeners (https://docs.aws.amazon.com/elasticloadbalancing/latest/network/load-balancer-access-logs.html); both listeners are TCP (STARTTLS is inside the SMTP session), so logs would stay empty. Connections are recorded by the VPC flow logs and the relay's own logs.",
    );
    for (const nlbSecurityGroup of this.loadBalancer.connections.securityGroups) {
      acknowledgeRule(
        nlbSecurityGroup.node.defaultChild as ec2.CfnSecurityGroup,
        'EC23',
        `The load balancer's listeners are public SMTP (${SMTP_RELAY.port} submission, ${SMTP_RELAY.mx.port} inbound MX): any mail client or mail server must reach them, so they are open to 0.0.0.0/0 by design.`,
      );
    }
    const healthCheck: elbv2.HealthCheck = {
      protocol: elbv2.Protocol[SMTP_RELAY.healthCheck.protocol],
      interval: Duration.seconds(SMTP_RELAY.healthCheck.intervalSeconds),
      healthyThresholdCount: SMTP_RELAY.healthCheck.healthyThreshold,
      unhealthyThresholdCount: SMTP_RELAY.healthCheck.unhealthyThreshold,
    };
    // One listener per public port, each to its container port in its own target group: the health check
    // connects to the port it guards (a target group's health check defaults to its traffic port).
    const ports = [
      {
        id: 'Submission',
        targetsId: 'Relay',
        port: SMTP_RELAY.port,
        containerPort: SMTP_RELAY.containerPort,
        description: 'SMTP submission',
      },
      { id: 'Mx', targetsId: 'MxTargets', port: SMTP_RELAY.mx.port, containerPort: SMTP_RELAY.mx.containerPort, description: 'Inbound MX' },
    ];
    for (const { id, targetsId, port, containerPort, description } of ports) {
      // The load balancer's own security group: the port from anywhere, on to the tasks.
      this.loadBalancer.connections.allowFromAnyIpv4(ec2.Port.tcp(port), description);
      this.loadBalancer.addListener(id, { port, protocol: elbv2.Protocol.TCP }).addTargets(targetsId, {
        port: containerPort,
        protocol: elbv2.Protocol.TCP,
        targets: [this.service.loadBalancerTarget({ containerName: 'relay', containerPort })],
        // The relay's AUTH throttle and the MX's SPF checks need the client's own address.
        preserveClientIp: true,
        // Sessions of a stopping task finish within its stopTimeout; no need to wait the default 300 s.
        deregistrationDelay: Duration.seconds(SMTP_RELAY.stopTimeoutSeconds),
        healthCheck,
      });
      securityGroup.connections.allowFrom(
        this.loadBalancer,
        ec2.Port.tcp(containerPort),
        `health checks from the load balancer (${description})`,
      );
    }
  }

  /**
   * Target tracking between SMTP_RELAY.autoscaling's minTasks and `maxTasks` on the tasks' average CPU and on the
   * open sessions per task (the EMF metric each task writes once a minute): whichever asks for more tasks wins,
   * and scale-in waits for both. Only with the TLS secret given (without it the service runs no task).
   */
  private scaleOnLoad(maxTasks: number): void {
    const scaling = SMTP_RELAY.autoscaling;
    const tasks = this.service.autoScaleTaskCount({ minCapacity: scaling.minTasks, maxCapacity: maxTasks });
    const cooldowns = {
      scaleOutCooldown: Duration.seconds(scaling.scaleOutCooldownSeconds),
      scaleInCooldown: Duration.seconds(scaling.scaleInCooldownSeconds),
    };
    tasks.scaleOnCpuUtilization('Cpu', { targetUtilizationPercent: scaling.cpuTargetPercent, ...cooldowns });
    tasks.scaleToTrackCustomMetric('Sessions', {
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: SESSIONS_METRIC.name,
        dimensionsMap: { ...SESSIONS_METRIC.dimension },
        statistic: cloudwatch.Stats.AVERAGE,
        period: Duration.minutes(1),
      }),
      targetValue: scaling.sessionsPerTaskTarget,
      ...cooldowns,
    });
  }
}
