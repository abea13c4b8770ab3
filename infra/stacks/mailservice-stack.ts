import { CfnOutput, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { CONFIGURATION_SET, QUEUES, SCHEDULE_GROUP, SETTINGS, STREAM_WORKERS, type QueueId } from '../definitions';
import { Api } from '../constructs/api';
import { Data } from '../constructs/data';
import { Email } from '../constructs/email';
import type { ServiceResources } from '../constructs/grants';
import { Messaging } from '../constructs/messaging';
import { Scheduling } from '../constructs/scheduling';
import type { FunctionDefaults } from '../constructs/service-function';
import { pascalCase, settingContextKey } from '../constructs/util';
import { Workers } from '../constructs/workers';
import { ScheduledTasks } from '../constructs/tasks';
import { Alarms } from '../constructs/alarms';
import { SmtpRelay } from '../constructs/smtp-relay';
import { DEFAULT_FUNCTIONS_DIR } from '../functions';
import { RELAY_MAX_TASKS_CONTEXT, relayMaxTasks } from '../relay-scaling';
import { brakeSettingsOf } from '#shared/domain/reputation/brake';
import { ENV } from '#shared/config/config';

export interface MailserviceStackProps extends StackProps {
  /** Where function code comes from: one `<name>/index.js` per function. Default dist/functions. */
  functionsDir?: string;
  /** SANDBOX_DOMAIN of every function. Default: context `sandboxDomain`, then SETTINGS.SANDBOX_DOMAIN. */
  sandboxDomain?: string;
  /** The SMTP relay's STARTTLS secret ({key, cert} PEMs). Default: context `smtpTlsSecretArn`; unset: relay at 0 tasks. */
  smtpTlsSecretArn?: string;
}

/**
 * Settings given as context (`cdk deploy -c inboundMxHost=mx.example.net`): each SETTINGS name in camel
 * case (INBOUND_MX_HOST -> inboundMxHost), passed to every function and the relay/MX task; a setting not
 * given keeps its default (shared/config/settings.ts).
 */
function settingsFromContext(scope: Construct): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of Object.keys(SETTINGS)) {
    const value = scope.node.tryGetContext(settingContextKey(name)) as string | undefined;
    if (typeof value === 'string' && value.trim() !== '') environment[name] = value.trim();
  }
  return environment;
}

/**
 * The whole service, generated from infra/definitions: adding an API group, a worker or a stream
 * worker there adds its Lambda, routes, event source, grants and environment with no change here.
 */
export class MailserviceStack extends Stack {
  readonly data: Data;
  readonly messaging: Messaging;
  readonly scheduling: Scheduling;
  readonly email: Email;
  readonly api: Api;
  readonly workers: Workers;
  readonly tasks: ScheduledTasks;
  readonly alarms: Alarms;
  readonly smtpRelay: SmtpRelay;

  constructor(scope: Construct, id: string, props: MailserviceStackProps = {}) {
    super(scope, id, { description: 'mailservice: transactional email service (HTTP API, queues, workers, SES)', ...props });
    Tags.of(this).add('project', 'mailservice');

    this.data = new Data(this, 'Data');
    this.messaging = new Messaging(this, 'Messaging');
    this.scheduling = new Scheduling(this, 'Scheduling', {
      targetQueues: SCHEDULE_GROUP.targetQueues.map((target) => ({
        queue: this.messaging.queues[target.queue],
        arnEnvVar: target.arnEnvVar,
      })),
    });
    this.email = new Email(this, 'Email', { eventsTopic: this.messaging.topics[CONFIGURATION_SET.topic] });

    const resources: ServiceResources = {
      table: this.data.table,
      buckets: this.data.buckets,
      queues: this.messaging.queues,
      topics: this.messaging.topics,
      configurationSetName: this.email.configurationSetName,
      scheduling: this.scheduling,
      secretsKey: this.data.secretsKey,
    };
    const sandboxDomain =
      props.sandboxDomain ?? (this.node.tryGetContext('sandboxDomain') as string | undefined) ?? SETTINGS.SANDBOX_DOMAIN;
    // LOG_LEVEL always reaches the functions and the relay task: its default (warn) is the template's, since the
    // code's own default (a process not told logs everything) suits the CLIs and the local cloud's own lines.
    const settings: Record<string, string> = { LOG_LEVEL: SETTINGS.LOG_LEVEL, ...settingsFromContext(this) };
    const functionsDir = props.functionsDir ?? DEFAULT_FUNCTIONS_DIR;
    this.api = new Api(this, 'Api', { functionsDir, resources, environment: { ...settings, SANDBOX_DOMAIN: sandboxDomain } });
    // Signed links (unsubscribe, tracking: docs/tracking.md) point at the links group: the HTTP API's own
    // endpoint unless `-c linksBaseUrl=...` names another (a custom domain). The API resource does not
    // depend on the functions (routes and integrations do), so this adds no cycle.
    if (settings.LINKS_BASE_URL === undefined) {
      for (const fn of Object.values(this.api.functions)) fn.addEnvironment('LINKS_BASE_URL', this.api.httpApi.apiEndpoint);
    }
    // The MCP door's tools call the API at its own endpoint (docs/mcp.md), never at a host a request names.
    for (const fn of Object.values(this.api.functions)) fn.addEnvironment(ENV.apiBaseUrl, this.api.httpApi.apiEndpoint);
    // Hosted MTA-STS policies: the custom domain names the domain-health task creates map to this API (docs/deliverability.md).
    const functions: FunctionDefaults = {
      functionsDir,
      resources,
      environment: {
        ...settings,
        SANDBOX_DOMAIN: sandboxDomain,
        LINKS_BASE_URL: settings.LINKS_BASE_URL ?? this.api.httpApi.apiEndpoint,
        [ENV.mtaStsApiId]: this.api.mtaStsApi.apiId,
        // Link domains' custom domain names map to this one (docs/tracking.md, "Link domains").
        [ENV.linksApiId]: this.api.linksApi.apiId,
      },
    };
    this.workers = new Workers(this, 'Workers', functions);
    this.tasks = new ScheduledTasks(this, 'Tasks', functions);
    // The alarms on SES's reputation rates use the brake's own thresholds (the same settings; unreadable or
    // not under AWS's review rates: the defaults, as the brake does).
    const { settings: brake } = brakeSettingsOf({
      bounceRate: Number(settings.REPUTATION_BOUNCE_RATE ?? SETTINGS.REPUTATION_BOUNCE_RATE),
      complaintRate: Number(settings.REPUTATION_COMPLAINT_RATE ?? SETTINGS.REPUTATION_COMPLAINT_RATE),
    });
    this.alarms = new Alarms(this, 'Alarms', {
      queues: this.messaging.queues,
      deadLetterQueues: this.messaging.deadLetterQueues,
      reputation: { bounceRate: brake.bounceRate, complaintRate: brake.complaintRate },
    });
    // The SMTP relay (587) and the inbound MX listener (25) on Fargate behind one NLB, granted like the functions.
    const smtpTlsSecretArn = props.smtpTlsSecretArn ?? (this.node.tryGetContext('smtpTlsSecretArn') as string | undefined);
    this.smtpRelay = new SmtpRelay(this, 'SmtpRelay', {
      functionsDir: functions.functionsDir,
      resources,
      environment: functions.environment,
      tlsSecretArn: smtpTlsSecretArn,
      logsBucket: this.data.logsBucket,
      maxTasks: relayMaxTasks(this.node.tryGetContext(RELAY_MAX_TASKS_CONTEXT)),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    for (const queueId of Object.keys(QUEUES) as QueueId[]) {
      new CfnOutput(this, `${pascalCase(queueId)}QueueUrl`, { value: this.messaging.queues[queueId].queueUrl });
      new CfnOutput(this, `${pascalCase(queueId)}DlqUrl`, { value: this.messaging.deadLetterQueues[queueId].queueUrl });
    }
    for (const [bucketId, bucket] of Object.entries(this.data.buckets)) {
      new CfnOutput(this, `${pascalCase(bucketId)}BucketName`, { value: bucket.bucketName });
    }
    for (const worker of STREAM_WORKERS) {
      new CfnOutput(this, `${pascalCase(worker.name)}OnFailureQueueUrl`, {
        value: this.workers.onFailureQueues[worker.name]!.queueUrl,
        description: `Batches the ${worker.name} stream worker gave up on (shard and sequence numbers)`,
      });
    }
    new CfnOutput(this, 'SmtpHost', {
      value: this.smtpRelay.loadBalancer.loadBalancerDnsName,
      description: 'SMTP relay host (port 587, STARTTLS): point smtp.<your domain> at it with a CNAME',
    });
    // The same load balancer: an MX target must be a name with address records (RFC 2181 10.3), never a CNAME.
    new CfnOutput(this, 'MxHost', {
      value: this.smtpRelay.loadBalancer.loadBalancerDnsName,
      description: 'Inbound MX (port 25): give the INBOUND_MX_HOST name an alias A record (e.g. Route 53 alias) to this load balancer',
    });
    new CfnOutput(this, 'SmtpTlsSecretArn', {
      value: this.smtpRelay.tlsSecret.secretArn,
      description: smtpTlsSecretArn
        ? 'The SMTP relay STARTTLS certificate secret'
        : 'Put {"key","cert"} PEMs in this secret, then deploy with -c smtpTlsSecretArn=<this ARN> to start the relay',
    });
    new CfnOutput(this, 'ConfigurationSetName', { value: this.email.configurationSetName });
    new CfnOutput(this, 'SecretsKeyArn', {
      value: this.data.secretsKey.keyArn,
      description: 'KMS key that encrypts stored secrets (DKIM keys)',
    });
  }
}
