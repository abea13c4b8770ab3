import { DEFAULT_SETTINGS } from './settings';
import { recoveryBoundsFromEnv, type RecoveryBounds } from '../domain/reliability/bounds';
import { oidcSettingsFromValues, type OidcSettings } from '../domain/dashboard/oidc';
import { PASSWORD_HASH_PARAMS, parseScryptParams, type ScryptParams } from '../domain/dashboard/password-hash';

/**
 * The names of the environment variables carrying resource names/URLs: the one copy, read here and by
 * shared/adapters/secrets, and referenced by infra/definitions (which CDK and the local cloud use to set them),
 * so a rename cannot drift. shared/ never imports infra/.
 */
export const ENV = {
  tableName: 'TABLE_NAME',
  sendQueueUrl: 'SEND_QUEUE_URL',
  sesEventsQueueUrl: 'SES_EVENTS_QUEUE_URL',
  webhookEventsQueueUrl: 'WEBHOOK_EVENTS_QUEUE_URL',
  webhookDeliveriesQueueUrl: 'WEBHOOK_DELIVERIES_QUEUE_URL',
  /** Inbound messages stored by the MX listener, waiting to be processed (shared/adapters/received-mail). */
  inboundQueueUrl: 'INBOUND_QUEUE_URL',
  /** A run's step is due (docs/automations.md): the automation-steps worker's queue, and its ARN (the delay schedules' target). */
  automationStepsQueueUrl: 'AUTOMATION_STEPS_QUEUE_URL',
  automationStepsQueueArn: 'AUTOMATION_STEPS_QUEUE_ARN',
  automationOutboxFailuresQueueUrl: 'AUTOMATION_OUTBOX_FAILURES_QUEUE_URL',
  outboxRelayFailuresQueueUrl: 'OUTBOX_RELAY_FAILURES_QUEUE_URL',
  tenantStatsFailuresQueueUrl: 'TENANT_STATS_FAILURES_QUEUE_URL',
  tenantEventsFailuresQueueUrl: 'TENANT_EVENTS_FAILURES_QUEUE_URL',
  sesEventsTopicArn: 'SES_EVENTS_TOPIC_ARN',
  mailBucket: 'MAIL_BUCKET',
  sesConfigurationSet: 'SES_CONFIGURATION_SET',
  /** The AWS account the stack runs in: SES resource ARNs (tenant associations) are built from it. */
  awsAccountId: 'AWS_ACCOUNT_ID',
  scheduleGroup: 'SCHEDULE_GROUP',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  schedulerTargetQueueArn: 'SCHEDULER_TARGET_QUEUE_ARN',
  /** KMS key that encrypts stored secrets (AWS, LocalStack). */
  secretsKeyId: 'SECRETS_KEY_ID',
  /** Local key file that encrypts stored secrets (the embedded cloud). */
  localSecretsKeyFile: 'LOCAL_SECRETS_KEY_FILE',
  /**
   * The HTTP API that serves hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): each
   * receiving domain's custom domain name `mta-sts.inbound.<domain>` is mapped to its `$default` stage.
   */
  mtaStsApiId: 'MTA_STS_API_ID',
  /**
   * The HTTP API that serves link domains (docs/tracking.md): each sending domain's custom
   * domain name `links.<domain>` is mapped to its `$default` stage (the links group's routes only).
   */
  linksApiId: 'LINKS_API_ID',
  /**
   * The HTTP API's own base URL (the stack's API Gateway endpoint; the local cloud's API URL), where the MCP
   * door's tools call the API (docs/mcp.md): configuration, never a host taken from a request.
   */
  apiBaseUrl: 'API_BASE_URL',
} satisfies Record<string, string>;

/**
 * Runtime configuration, read once from the environment by the composition root.
 * Resource names/URLs come from the variables named in ENV (set by CDK in AWS and by the local runtime
 * on the embedded cloud). Endpoint overrides are only read by the client factory.
 */
export interface Config {
  region: string;
  /** AWS_ACCOUNT_ID: the account of SES resource ARNs (identities, the configuration set); '' when unset. */
  accountId: string;
  tableName: string;
  sendQueueUrl: string;
  mailBucket: string;
  sesConfigurationSet: string;
  webhookEventsQueueUrl: string;
  /** INBOUND_QUEUE_URL: the MX listener's hand-over to the inbound worker. */
  inboundQueueUrl: string;
  /** AUTOMATION_STEPS_QUEUE_URL / _ARN: the automation-steps queue (workers send to it; schedules target its ARN). */
  automationStepsQueueUrl: string;
  automationStepsQueueArn: string;
  /** Delays (seconds) before each webhook retry; the spec's 0s, 5s, 30s, 2m, 2m unless tests shorten them. */
  webhookRetryDelays: number[];
  scheduleGroup: string;
  /** MTA_STS_API_ID: the HTTP API hosted MTA-STS policies' custom domain names map to ('' when unset: hosting is off). */
  mtaStsApiId: string;
  /** LINKS_API_ID: the HTTP API link domains' custom domain names map to ('' when unset: link domains are off). */
  linksApiId: string;
  schedulerRoleArn: string;
  schedulerTargetArn: string;
  sandboxDomain: string;
  returnPathHost: string;
  spfInclude: string;
  inboundMxHost: string;
  dashboardUrl: string;
  /** `host:port` list; empty = the system's resolvers. */
  dnsResolvers: string;
  /** LINKS_BASE_URL without a trailing slash: where signed links (unsubscribe, tracking) point. */
  linksBaseUrl: string;
  /** API_BASE_URL without a trailing slash: the HTTP API's own URL (ENV.apiBaseUrl); '' when not set. */
  apiBaseUrl: string;
  /** URL of the webhook deliveries queue (WEBHOOK_DELIVERIES_QUEUE_URL). */
  webhookDeliveriesQueueUrl: string;
  /** WEBHOOK_ALLOW_LOOPBACK=true|1: webhook URLs may point at loopback addresses (the local cloud only). */
  webhookAllowLoopback: boolean;
  /** When the reconciler treats each pipeline stage as stuck (RECOVERY_*_S, docs/reliability.md). */
  recovery: RecoveryBounds;
  /**
   * POST /migrations (docs/imports.md): how long one request works (MIGRATION_REQUEST_BUDGET_MS, default
   * 20000) and, for tests, after how many saved stretches it stops (MIGRATION_MAX_STRETCHES_PER_REQUEST).
   */
  imports: { budgetMs: number; maxStretchesPerRequest: number | null };
  /**
   * DNS apply (docs/domains.md, "DNS apply"): Cloudflare's API base (CLOUDFLARE_API_URL, default the real
   * v4 API; the local cloud points it at its fake) and how long apply waits for Route 53 to report a
   * change INSYNC before verifying (DNS_APPLY_SETTLE_MS, default 10000).
   */
  dnsApply: { cloudflareApiUrl: string; settleMs: number };
  /**
   * SES_MAX_SEND_RATE: recipients per second the send workers pace to, instead of SES's MaxSendRate read
   * from GetAccount (e.g. below it, when other senders share the SES account); null: SES's (docs/deploy.md).
   */
  sesMaxSendRate: number | null;
  /** SES_HOLD_RETRY_S: the wait before retrying an email SES's account state holds (default 5-10 min); tests shorten it. */
  sesHoldRetryMs: number | null;
  /**
   * HOT_LOOKUPS_CACHE_MS: how long a process keeps what every request of an account reads alike: the key,
   * account, domain claim and tenant items a send read (shared/adapters/store/send-context-cache.ts) and the
   * active automations an event name starts or cancels (shared/adapters/store/automations.ts). The staleness
   * bound of a revocation, a suspension, a deletion or an automation's activation; 0 keeps nothing. Default
   * 1000 (the local cloud sets 0: docs/local-cloud/template.md).
   */
  hotLookupsCacheMs: number;
  /**
   * PASSWORD_HASH_COST (`ln=10,r=8,p=1`): the scrypt parameters of new dashboard password hashes, instead of
   * PASSWORD_HASH_PARAMS (shared/domain/dashboard/password-hash.ts). A knob of the test suite's stacks only,
   * as a fast password hasher is in Django's test settings: a hash at the real parameters costs 150-300 ms of
   * CPU, and the suite hashed and checked some 250 passwords. No template sets it, so a deployed function
   * never has it; unreadable, the real parameters.
   */
  passwordHashParams: ScryptParams;
  /**
   * The reputation brake's settings (REPUTATION_*, shared/config/settings.ts) as numbers (NaN: unreadable; the
   * brake replaces a bad value with its default: shared/domain/reputation/brake.ts).
   */
  reputation: { bounceRate: number; complaintRate: number; deploymentMinSent: number; offenderMinSent: number };
  /** Dashboard sign-in through an OpenID Connect provider (OIDC_*, shared/config/settings.ts); null: not configured. */
  oidc: OidcSettings | null;
  /** Service endpoints for the local cloud/LocalStack; empty in AWS. */
  endpoints: Partial<Record<'dynamodb' | 'sqs' | 'sns' | 's3' | 'ses' | 'scheduler' | 'route53' | 'acm' | 'apigatewayv2', string>>;
}

/** HOT_LOOKUPS_CACHE_MS's default: a revocation or a suspension applies within a second on AWS. */
export const DEFAULT_HOT_LOOKUPS_CACHE_MS = 1000;

function read(env: NodeJS.ProcessEnv, name: string, fallback = ''): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function nonNegativeInt(value: string, fallback: number): number {
  const parsed = Number(value);
  return value !== '' && Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback;
}

function positiveInt(value: string, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** The region, the account and the names of the resources the stack made (table, queues, bucket, ...). */
function resourceNames(
  env: NodeJS.ProcessEnv,
): Pick<
  Config,
  | 'region'
  | 'accountId'
  | 'tableName'
  | 'sendQueueUrl'
  | 'mailBucket'
  | 'sesConfigurationSet'
  | 'webhookEventsQueueUrl'
  | 'inboundQueueUrl'
  | 'automationStepsQueueUrl'
  | 'automationStepsQueueArn'
> {
  return {
    region: read(env, 'AWS_REGION', read(env, 'AWS_DEFAULT_REGION', 'us-east-1')),
    accountId: read(env, ENV.awsAccountId),
    tableName: read(env, ENV.tableName),
    sendQueueUrl: read(env, ENV.sendQueueUrl),
    mailBucket: read(env, ENV.mailBucket),
    sesConfigurationSet: read(env, ENV.sesConfigurationSet),
    webhookEventsQueueUrl: read(env, ENV.webhookEventsQueueUrl),
    inboundQueueUrl: read(env, ENV.inboundQueueUrl),
    automationStepsQueueUrl: read(env, ENV.automationStepsQueueUrl),
    automationStepsQueueArn: read(env, ENV.automationStepsQueueArn),
  };
}

/** Where the deployment lives and what it calls itself: schedules, domains, hosts and base URLs. */
function deploymentSettings(
  env: NodeJS.ProcessEnv,
): Pick<
  Config,
  | 'scheduleGroup'
  | 'mtaStsApiId'
  | 'linksApiId'
  | 'schedulerRoleArn'
  | 'schedulerTargetArn'
  | 'sandboxDomain'
  | 'returnPathHost'
  | 'spfInclude'
  | 'inboundMxHost'
  | 'dashboardUrl'
  | 'dnsResolvers'
  | 'linksBaseUrl'
  | 'apiBaseUrl'
  | 'webhookDeliveriesQueueUrl'
  | 'webhookAllowLoopback'
> {
  return {
    scheduleGroup: read(env, ENV.scheduleGroup),
    mtaStsApiId: read(env, ENV.mtaStsApiId),
    linksApiId: read(env, ENV.linksApiId),
    schedulerRoleArn: read(env, ENV.schedulerRoleArn),
    schedulerTargetArn: read(env, ENV.schedulerTargetQueueArn),
    sandboxDomain: read(env, 'SANDBOX_DOMAIN', DEFAULT_SETTINGS.SANDBOX_DOMAIN).toLowerCase(),
    returnPathHost: read(env, 'RETURN_PATH_HOST', DEFAULT_SETTINGS.RETURN_PATH_HOST).toLowerCase(),
    spfInclude: read(env, 'SPF_INCLUDE', DEFAULT_SETTINGS.SPF_INCLUDE).toLowerCase(),
    inboundMxHost: read(env, 'INBOUND_MX_HOST', DEFAULT_SETTINGS.INBOUND_MX_HOST).toLowerCase(),
    dashboardUrl: read(env, 'DASHBOARD_URL', DEFAULT_SETTINGS.DASHBOARD_URL).replace(/\/$/, ''),
    dnsResolvers: read(env, 'DNS_RESOLVERS', DEFAULT_SETTINGS.DNS_RESOLVERS),
    linksBaseUrl: read(env, 'LINKS_BASE_URL', DEFAULT_SETTINGS.LINKS_BASE_URL).trim().replace(/\/+$/, ''),
    apiBaseUrl: read(env, ENV.apiBaseUrl).trim().replace(/\/+$/, ''),
    webhookDeliveriesQueueUrl: read(env, ENV.webhookDeliveriesQueueUrl),
    webhookAllowLoopback: ['true', '1'].includes(read(env, 'WEBHOOK_ALLOW_LOOPBACK').trim().toLowerCase()),
  };
}

/** Limits and rates an operator may tune: imports, DNS apply, SES pacing, the reputation brake, the hot lookups' cache. */
function tuningSettings(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'imports' | 'dnsApply' | 'sesMaxSendRate' | 'sesHoldRetryMs' | 'reputation' | 'hotLookupsCacheMs' | 'passwordHashParams'> {
  return {
    imports: {
      budgetMs: positiveInt(read(env, 'MIGRATION_REQUEST_BUDGET_MS'), 20_000),
      maxStretchesPerRequest: read(env, 'MIGRATION_MAX_STRETCHES_PER_REQUEST')
        ? positiveInt(read(env, 'MIGRATION_MAX_STRETCHES_PER_REQUEST'), 1)
        : null,
    },
    dnsApply: {
      cloudflareApiUrl: read(env, 'CLOUDFLARE_API_URL', 'https://api.cloudflare.com/client/v4').trim().replace(/\/+$/, ''),
      settleMs: read(env, 'DNS_APPLY_SETTLE_MS') === '0' ? 0 : positiveInt(read(env, 'DNS_APPLY_SETTLE_MS'), 10_000),
    },
    sesMaxSendRate: Number(read(env, 'SES_MAX_SEND_RATE')) > 0 ? Number(read(env, 'SES_MAX_SEND_RATE')) : null,
    sesHoldRetryMs: Number(read(env, 'SES_HOLD_RETRY_S')) > 0 ? Number(read(env, 'SES_HOLD_RETRY_S')) * 1000 : null,
    reputation: {
      bounceRate: Number(read(env, 'REPUTATION_BOUNCE_RATE', DEFAULT_SETTINGS.REPUTATION_BOUNCE_RATE)),
      complaintRate: Number(read(env, 'REPUTATION_COMPLAINT_RATE', DEFAULT_SETTINGS.REPUTATION_COMPLAINT_RATE)),
      deploymentMinSent: Number(read(env, 'REPUTATION_DEPLOYMENT_MIN_SENT', DEFAULT_SETTINGS.REPUTATION_DEPLOYMENT_MIN_SENT)),
      offenderMinSent: Number(read(env, 'REPUTATION_OFFENDER_MIN_SENT', DEFAULT_SETTINGS.REPUTATION_OFFENDER_MIN_SENT)),
    },
    hotLookupsCacheMs: nonNegativeInt(read(env, 'HOT_LOOKUPS_CACHE_MS'), DEFAULT_HOT_LOOKUPS_CACHE_MS),
    passwordHashParams: parseScryptParams(read(env, 'PASSWORD_HASH_COST')) ?? PASSWORD_HASH_PARAMS,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    ...resourceNames(env),
    webhookRetryDelays: read(env, 'WEBHOOK_RETRY_DELAYS', '0,5,30,120,120')
      .split(',')
      .map((value) => Number(value.trim()))
      .filter((value) => Number.isInteger(value) && value >= 0 && value <= 900),
    ...deploymentSettings(env),
    recovery: recoveryBoundsFromEnv(env),
    ...tuningSettings(env),
    oidc: oidcSettingsFromValues({
      issuer: read(env, 'OIDC_ISSUER'),
      clientId: read(env, 'OIDC_CLIENT_ID'),
      label: read(env, 'OIDC_LABEL'),
      allowedDomains: read(env, 'OIDC_ALLOWED_DOMAINS'),
      sealedClientSecret: read(env, 'OIDC_CLIENT_SECRET_SEALED'),
    }),
    endpoints: {
      dynamodb: env.AWS_ENDPOINT_URL_DYNAMODB,
      sqs: env.AWS_ENDPOINT_URL_SQS,
      sns: env.AWS_ENDPOINT_URL_SNS,
      s3: env.AWS_ENDPOINT_URL_S3,
      ses: env.AWS_ENDPOINT_URL_SESV2,
      scheduler: env.AWS_ENDPOINT_URL_SCHEDULER,
      route53: env.AWS_ENDPOINT_URL_ROUTE_53,
      acm: env.AWS_ENDPOINT_URL_ACM,
      apigatewayv2: env.AWS_ENDPOINT_URL_APIGATEWAYV2,
    },
  };
}

/** Fails fast with the name of a missing setting instead of a confusing SDK error later. */
export function required<K extends keyof Config>(config: Config, key: K, envVar: string): NonNullable<Config[K]> {
  const value = config[key];
  if (value === undefined || value === null || value === '') {
    throw new Error(`Missing configuration: set ${envVar}`);
  }
  return value as NonNullable<Config[K]>;
}
