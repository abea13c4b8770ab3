/**
 * The one description of the service's cloud resources.
 *
 * Both the CDK stack (infra/stacks) and the embedded local cloud (localstack/) read this file, so the
 * table, queues, topics, buckets, API routes and worker event sources cannot drift between AWS and a
 * developer's machine. Plain data only: no CDK or AWS SDK imports here.
 *
 * Functions receive the physical names/URLs through the environment variables named here
 * (see shared/config/config.ts for the reader).
 */
import { ENV } from '#shared/config/config';
import { DEFAULT_SETTINGS } from '#shared/config/settings';

export interface TableDefinition {
  /** Logical id in CDK; physical name locally. */
  name: string;
  partitionKey: string;
  sortKey: string;
  /** `projection` defaults to ALL; KEYS_ONLY indexes carry the table's keys and their own. */
  globalSecondaryIndexes: { indexName: string; partitionKey: string; sortKey: string; projection?: 'ALL' | 'KEYS_ONLY' }[];
  timeToLiveAttribute: string;
  envVar: string;
  /**
   * DynamoDB Streams view of the table (unset: no stream). It feeds the transactional outbox and the tenant stats (old images):
   * STREAM_WORKERS read it (Lambda event source mappings in AWS, localstack/cloud/stream-poller.ts locally).
   */
  stream?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY' | 'OLD_IMAGE';
}

export const TABLE: TableDefinition = {
  name: 'mailservice-main',
  partitionKey: 'PK',
  sortKey: 'SK',
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    // The due index (shared/adapters/store/due-index.ts): unfinished work by due time, for the reconciler. Keys
    // only: an email's body is never copied into it, and the reconciler reads each item before acting.
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'KEYS_ONLY' },
    // The automation runs of a user (RUN items' GSI3PK RUNS#<acc>#<subject>), and the tenant emails of before GSI5.
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    // The account's email listing (shared/adapters/store/email-listing.ts): ACCOUNT#<acc>#EMAILS#<shard> / <msg id>.
    // Keys only: the entry is written once, when the email is accepted; its status writes never touch it
    // (docs/benchmarks.md, "The partition model"). Emails accepted before it are listed from GSI1.
    { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', projection: 'KEYS_ONLY' },
    // The tenant emails index (shared/adapters/store/email-listing.ts): sparse, only tenant emails carry GSI5PK
    // (TENANT#<ten id>#EMAILS#<shard>), so GET /emails?tenant= reads one tenant's emails, newest first. Keys
    // only, as GSI4; tenant emails accepted before it are listed from GSI3.
    { indexName: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK', projection: 'KEYS_ONLY' },
  ],
  timeToLiveAttribute: 'ttl',
  envVar: ENV.tableName,
  stream: 'NEW_AND_OLD_IMAGES',
};

export interface QueueDefinition {
  /** Key used by workers and grants. */
  id: QueueId;
  name: string;
  visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the DLQ. */
  maxReceiveCount: number;
  dlqName: string;
  /** Environment variable carrying the queue URL. */
  envVar: string;
}

export type QueueId = 'send' | 'sesEvents' | 'webhookEvents' | 'webhookDeliveries' | 'inbound' | 'automationSteps';

export const QUEUES: Record<QueueId, QueueDefinition> = {
  send: {
    id: 'send',
    name: 'mailservice-send-email',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-send-email-dlq',
    envVar: ENV.sendQueueUrl,
  },
  sesEvents: {
    id: 'sesEvents',
    name: 'mailservice-ses-events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-ses-events-dlq',
    envVar: ENV.sesEventsQueueUrl,
  },
  /** Service events (email.*, ...) to fan out to subscribed webhook endpoints. */
  webhookEvents: {
    id: 'webhookEvents',
    name: 'mailservice-webhook-events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-webhook-events-dlq',
    envVar: ENV.webhookEventsQueueUrl,
  },
  /** One message per (endpoint, event) delivery attempt; retries are re-enqueued with a delay. */
  webhookDeliveries: {
    id: 'webhookDeliveries',
    name: 'mailservice-webhook-deliveries',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-webhook-deliveries-dlq',
    envVar: ENV.webhookDeliveriesQueueUrl,
  },
  /**
   * Inbound messages (docs/inbound.md): the MX listener stores the raw message in S3 and checks its
   * sender's SPF, DKIM and DMARC, then sends one message per receiving account with the results; the
   * inbound worker parses, records and publishes it.
   * The raw message stays in S3 whatever happens here, so a message in the DLQ is never lost.
   */
  inbound: {
    id: 'inbound',
    name: 'mailservice-inbound',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    dlqName: 'mailservice-inbound-dlq',
    envVar: ENV.inboundQueueUrl,
  },
  /**
   * Automation steps (docs/automations.md, "Runs"): `{run_id, step_index, wake?}` from the automation
   * outbox (a step left pending), from one-time schedules (a delay's end, a wait's timeout) and from the
   * reconciler. The worker claims each step with a conditional write, so duplicates do nothing.
   */
  automationSteps: {
    id: 'automationSteps',
    name: 'mailservice-automation-steps',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-automation-steps-dlq',
    envVar: ENV.automationStepsQueueUrl,
  },
};

export type TopicId = 'sesEvents';

export interface TopicDefinition {
  id: TopicId;
  name: string;
  /** Queues subscribed to the topic (SNS -> SQS, not raw delivery: bodies are SNS envelopes). */
  subscribedQueues: QueueId[];
  envVar: string;
}

export const TOPICS: Record<TopicId, TopicDefinition> = {
  sesEvents: {
    id: 'sesEvents',
    name: 'mailservice-ses-events',
    subscribedQueues: ['sesEvents'],
    envVar: ENV.sesEventsTopicArn,
  },
};

export type BucketId = 'mail';

export interface BucketDefinition {
  id: BucketId;
  /** Physical name locally; CDK lets AWS name it. */
  name: string;
  envVar: string;
}

export const BUCKETS: Record<BucketId, BucketDefinition> = {
  mail: { id: 'mail', name: 'mailservice-mail', envVar: ENV.mailBucket },
};

/** SES configuration set every outbound message is sent with; its event destination is the SES events topic. */
export const CONFIGURATION_SET = {
  name: 'mailservice-outbound',
  eventDestinationName: 'to-sns',
  topic: 'sesEvents' as TopicId,
  /**
   * SESv2 MatchingEventTypes. Never OPEN or CLICK: with either, SES adds its own pixel and rewrites every
   * link of every HTML part, raw messages included (docs/local-cloud/ses.md "Tracking"); the service's
   * own tracking (docs/tracking.md) is the only one.
   */
  matchingEventTypes: ['DELIVERY', 'BOUNCE', 'COMPLAINT', 'DELIVERY_DELAY', 'REJECT'],
  envVar: ENV.sesConfigurationSet,
};

/** EventBridge Scheduler group holding one-time schedules (scheduled sends, automation delays and wait timeouts). */
export const SCHEDULE_GROUP = {
  name: 'mailservice',
  envVar: ENV.scheduleGroup,
  /** Role the scheduler assumes to send to SQS targets. */
  roleEnvVar: ENV.schedulerRoleArn,
  /**
   * Queues the schedules deliver into (the only ones the scheduler role may send to), each with the
   * environment variable carrying its ARN (a schedule's Target.Arn): scheduled emails into the send
   * queue, waiting automation steps into the automation-steps queue.
   */
  targetQueues: [
    { queue: 'send' as QueueId, arnEnvVar: ENV.schedulerTargetQueueArn },
    { queue: 'automationSteps' as QueueId, arnEnvVar: ENV.automationStepsQueueArn },
  ],
};

/**
 * The key that encrypts stored secrets (DKIM private keys, webhook signing secrets): KMS in AWS, a local
 * key file on the embedded cloud.
 */
export const SECRETS_KEY = {
  alias: 'alias/mailservice-secrets',
  /** KMS key ARN in AWS. */
  envVar: ENV.secretsKeyId,
  /** Path of the local key file on the embedded cloud (32 random bytes, created on first start). */
  localFileEnvVar: ENV.localSecretsKeyFile,
};

export type Resource =
  | { kind: 'table' }
  | { kind: 'queue'; id: QueueId }
  | { kind: 'topic'; id: TopicId }
  | { kind: 'bucket'; id: BucketId }
  | { kind: 'ses' }
  | { kind: 'scheduler' }
  | { kind: 'secretsKey' }
  /** Amazon Route 53 hosted zones of the stack's account (DNS apply with the service's own credentials). */
  | { kind: 'route53' }
  /** ACM public certificates of the stack's account: hosted MTA-STS policy hosts (docs/deliverability.md). */
  | { kind: 'certificates' }
  /** API Gateway custom domain names of the stack's account and their API mappings: hosted MTA-STS policy hosts. */
  | { kind: 'apiDomains' };

/** Access a function needs to a resource; CDK turns these into least-privilege grants. */
export type Access =
  | 'read'
  | 'readWrite'
  | 'send'
  | 'consume'
  | 'publish'
  | 'sendEmail'
  /** SES: GetAccount (the send quota and whether the account sends); SES has no resource for it ("*"). */
  | 'readAccount'
  /** SES: create, read, delete and configure (BYODKIM, MAIL FROM) the account's email identities. */
  | 'manageIdentities'
  /** SES: read the account's email identities (GetEmailIdentity: whether SES has verified a domain). */
  | 'readIdentities'
  /**
   * SES: create, read and delete SES tenants and associate them with the account's identities and our
   * configuration set (docs/ses-tenants.md).
   */
  | 'manageTenants'
  /**
   * SES: what manageTenants allows, plus listing the account's SES tenants and a tenant's resources
   * (the reconciler's SES tenants sweep, docs/ses-tenants.md).
   */
  | 'sweepTenants'
  | 'schedule'
  | 'encrypt'
  | 'decrypt'
  | 'encryptDecrypt'
  /** Table: UpdateItem only (no reads, puts or deletes), e.g. adding to counters. */
  | 'update'
  /**
   * Route 53: find hosted zones by name, read and UPSERT record sets, follow changes
   * (ListHostedZonesByName, ListResourceRecordSets, ChangeResourceRecordSets, GetChange).
   */
  | 'manageRecords'
  /** ACM: request, describe and delete public certificates (RequestCertificate, DescribeCertificate, DeleteCertificate). */
  | 'manageCertificates'
  /**
   * API Gateway: create, read and delete regional custom domain names and their API mappings
   * (CreateDomainName, GetDomainName, DeleteDomainName, CreateApiMapping, GetApiMappings, DeleteApiMapping).
   */
  | 'manageApiDomains';

export interface Grant {
  resource: Resource;
  access: Access;
}

export interface ApiGroupDefinition {
  /** Group name; also the Lambda's logical id suffix. */
  name: string;
  /** Entry file (relative to the project root) exporting `handler`. */
  entry: string;
  /**
   * Routes (API Gateway syntax) of what the group serves besides its operations: the dashboard's pages.
   * The routes of its operations come from their declarations (infra/api-routes.ts).
   */
  pages?: string[];
  grants: Grant[];
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
}

/**
 * The HTTP API of hosted MTA-STS policies (docs/deliverability.md, "Hosted MTA-STS policy"): an API of its own,
 * with no execute-api endpoint, reached only through the custom domain names `mta-sts.inbound.<domain>` the
 * domains group creates and maps to it at run time. One public route, one small function reading the policy
 * of the host it was asked for.
 */
export const MTA_STS_API = {
  name: 'mta-sts',
  entry: 'functions/api/mta-sts/handler.ts',
  routes: ['GET /.well-known/mta-sts.txt'],
  memoryMb: 256,
  grants: [{ resource: { kind: 'table' }, access: 'read' }] as Grant[],
};

/**
 * The grants of whoever provisions a hosted MTA-STS policy host: its certificate in ACM and its custom
 * domain name (with the mapping to the MTA-STS API) in API Gateway. Only the domain-health task takes those
 * steps (PUT and DELETE /domains/{id}/mta-sts only make them due), so only it holds these.
 */
export const MTA_STS_HOSTING_GRANTS: Grant[] = [
  { resource: { kind: 'certificates' }, access: 'manageCertificates' },
  { resource: { kind: 'apiDomains' }, access: 'manageApiDomains' },
];

/**
 * The grants of a door that runs the send core (the emails group's POST /emails, the provider-compatible
 * doors): the table, the send queue, the mail bucket (large bodies, attachments) and one-time schedules.
 */
const SEND_CORE_GRANTS: Grant[] = [
  { resource: { kind: 'table' }, access: 'readWrite' },
  { resource: { kind: 'queue', id: 'send' }, access: 'send' },
  { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
  // Scheduled sends: one-time schedules targeting the send queue.
  { resource: { kind: 'scheduler' }, access: 'schedule' },
];

export const API_GROUPS: ApiGroupDefinition[] = [
  {
    name: 'emails',
    entry: 'functions/api/emails/handler.ts',
    // The send path: half the compute time of a request and of a cold start at 512 MB (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      ...SEND_CORE_GRANTS,
      // POST /emails/test events.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    // The provider-compatible sending doors (docs/compat.md): SendGrid's /v3/mail/send, Postmark's /email,
    // Mailgun's /v3/{domain}/messages, each onto the send core with the provider's own auth and answers.
    // Not operations of the OpenAPI reference: their routes are pages. The emails group's send grants.
    name: 'compat',
    entry: 'functions/api/compat/handler.ts',
    pages: ['ANY /v3/{proxy+}', 'ANY /email', 'ANY /email/{proxy+}'],
    memoryMb: 1024,
    grants: SEND_CORE_GRANTS,
  },
  {
    // The MCP server over streamable HTTP (docs/mcp.md): POST /mcp behind the API key. Its tools call this
    // API over HTTP with the caller's own key (clients/mcp), so every scope, limit and rule applies as to any
    // caller; the group itself only reads the key.
    name: 'mcp',
    entry: 'functions/api/mcp/handler.ts',
    pages: ['ANY /mcp', 'ANY /mcp/{proxy+}'],
    grants: [{ resource: { kind: 'table' }, access: 'read' }],
  },
  {
    // The account's settings (GET/PATCH /account: retention, content storage), erasures (/privacy/erasures) and
    // exports (/exports): docs/privacy.md. Erasures delete objects naming an address; exports write NDJSON
    // objects and sign their download links.
    name: 'account',
    entry: 'functions/api/account/handler.ts',
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
    ],
  },
  {
    name: 'api-keys',
    entry: 'functions/api/api-keys/handler.ts',
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
  {
    name: 'smtp-credentials',
    entry: 'functions/api/smtp-credentials/handler.ts',
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
  {
    name: 'tenants',
    entry: 'functions/api/tenants/handler.ts',
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // Each tenant is an SES tenant (created with the tenant, deleted with it) using our configuration set
      // and its domains' identities (given to and returned from the tenant here).
      { resource: { kind: 'ses' }, access: 'manageTenants' },
    ],
  },
  {
    name: 'domains',
    entry: 'functions/api/domains/handler.ts',
    // /dns-providers: the DNS host credentials DNS apply may use (stored sealed).
    // POST /domains generates a 2048-bit RSA key (~240 ms of CPU): ~0.4 s at 1024 MB, ~0.8 s at 512 (docs/deploy.md).
    memoryMb: 1024,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // New domains get an encrypted DKIM key; verification decrypts it to sign a probe. Stored DNS host
      // credentials are sealed and opened with it too.
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      // DNS apply through Route 53 without credentials in the request: the function's own role writes the
      // records in the account's hosted zones (docs/domains.md, "DNS apply"). Cloudflare is outbound HTTPS only.
      { resource: { kind: 'route53' }, access: 'manageRecords' },
      // A verified domain becomes an SES identity (BYODKIM with its key, MAIL FROM rp.<domain>); deleting removes it.
      { resource: { kind: 'ses' }, access: 'manageIdentities' },
      // A tenant's domain, once verified (or deleted), is associated with (or dissociated from) its SES tenant.
      { resource: { kind: 'ses' }, access: 'manageTenants' },
      // A health check that opened or fixed a finding raises domain.health_changed (docs/deliverability.md).
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    name: 'webhooks',
    entry: 'functions/api/webhooks/handler.ts',
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // Signing secrets are sealed at creation.
      { resource: { kind: 'secretsKey' }, access: 'encrypt' },
      // Replays re-enqueue a delivery.
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ],
  },
  {
    name: 'suppressions',
    entry: 'functions/api/suppressions/handler.ts',
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
  {
    name: 'attachments',
    entry: 'functions/api/attachments/handler.ts',
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // Presigned PUT URLs are signed with this function's role (s3:PutObject on uploads/); GET reads the object's size (HEAD).
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
    ],
  },
  {
    // Received (inbound) email: list and read; attachments and the raw message by presigned GET URLs.
    name: 'received-emails',
    entry: 'functions/api/received-emails/handler.ts',
    grants: [
      { resource: { kind: 'table' }, access: 'read' },
      // Bodies and small attachments are read here; large ones and the raw message are signed for GET.
      { resource: { kind: 'bucket', id: 'mail' }, access: 'read' },
    ],
  },
  {
    // Templates: drafts, publishing, rendering previews (docs/templates.md). Sends read them from the emails group.
    name: 'templates',
    entry: 'functions/api/templates/handler.ts',
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
  {
    // Automations: definitions, activate and pause, runs, and POST /events (docs/automations.md). An event
    // writes runs only: the table's stream hands their steps to the automation-steps worker.
    name: 'automations',
    entry: 'functions/api/automations/handler.ts',
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
  {
    // Imports from SendGrid, Postmark and Mailgun (docs/imports.md): each request works ~25 s against the
    // provider's API (outbound HTTPS) and writes domains, webhooks, templates and suppressions through
    // the same use cases as their own groups.
    name: 'migrations',
    entry: 'functions/api/migrations/handler.ts',
    // Each imported domain generates a DKIM key (as POST /domains) within the request's ~25 s budget (docs/deploy.md).
    memoryMb: 1024,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // New domains get a sealed DKIM key and imported webhooks a sealed signing secret: seal only.
      { resource: { kind: 'secretsKey' }, access: 'encrypt' },
    ],
  },
  {
    // Public (no API key: the signed token is the authority): one-click unsubscribe and its confirmation
    // page, the open pixel and the click redirect (docs/tracking.md). Tokens may be up to 4 KB long.
    name: 'links',
    entry: 'functions/api/links/handler.ts',
    grants: [
      // Reads emails and link keys; writes suppressions, opt-outs and opens/clicks on emails.
      { resource: { kind: 'table' }, access: 'readWrite' },
      // Opens link keys (created by the send worker or the admin CLI, never here).
      { resource: { kind: 'secretsKey' }, access: 'decrypt' },
      // contact.unsubscribed, email.opened, email.clicked.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    // The web dashboard (docs/dashboard.md): sign-in, sign-out and sessions under /dashboard (no API key:
    // the session cookie), its pages (keys, webhooks, tenants, templates, ...: the same use cases as the
    // groups they mirror), and the spec's session doors /api/events and /api/webhooks, which run the
    // automations group's POST /events and the webhooks group's routes behind session authentication.
    // The emails, received-email and domain pages are functions of their own (below), so no dashboard
    // function bundles every AWS client. Each one's grants are what its use cases need
    // (test/infra/dashboard-group.test.ts names each one's source).
    name: 'dashboard',
    entry: 'functions/api/dashboard/handler.ts',
    pages: ['ANY /dashboard', 'ANY /dashboard/{proxy+}'],
    // Light pages (~6 ms of CPU each, ~75 ms cold): the default 512 MB (docs/deploy.md, "Memory sizing").
    grants: [
      // Users, sessions, sign-in counters; every page's records (keys, webhooks, runs, ...).
      { resource: { kind: 'table' }, access: 'readWrite' },
      // Webhook signing secrets are sealed at creation (as the webhooks group); the OpenID Connect client
      // secret (OIDC_CLIENT_SECRET_SEALED, docs/dashboard.md) is opened on the first OIDC sign-in.
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      // Replaying a webhook delivery re-enqueues it (as the webhooks group).
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ],
  },
  {
    // The dashboard's Validate addresses page (docs/deliverability.md, "Address validation"): a function of its
    // own, so the disposable domains list (~170 KB) stays out of the other dashboard bundles. DNS is UDP/TCP
    // to the resolvers (no grant).
    name: 'dashboard-validations',
    entry: 'functions/api/dashboard-validations/handler.ts',
    pages: ['ANY /dashboard/validations'],
    grants: [
      // Sessions; the hourly validation allowance's counter; suppressions and tenants read.
      { resource: { kind: 'table' }, access: 'readWrite' },
    ],
  },
  {
    // The dashboard's emails and received-email pages (docs/dashboard.md): the most specific routes win,
    // so API Gateway sends these paths here rather than to 'dashboard'. The same session.
    name: 'dashboard-emails',
    entry: 'functions/api/dashboard-emails/handler.ts',
    pages: ['ANY /dashboard/emails', 'ANY /dashboard/emails/{proxy+}', 'ANY /dashboard/received', 'ANY /dashboard/received/{proxy+}'],
    // The page a signed-in user lands on: its list, search and charts ~13 ms of CPU, ~95 ms cold (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      // Sessions; emails, their events and received emails; the test send's record (the outbox relay enqueues it).
      { resource: { kind: 'table' }, access: 'readWrite' },
      // The test send stores large bodies; an email's page reads its body or raw message; received email
      // pages read bodies and sign download links (as the emails and received-emails groups).
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
    ],
  },
  {
    // The dashboard's forms that send through the send core (docs/dashboard.md): the emails page's test send
    // (/dashboard/emails/test: the most specific route wins over dashboard-emails') and the members page's
    // invite form (it may email the invitation). A function of its own, so the page functions hold no send core
    // (dashboard-emails had no room left under the 1 MiB bundle limit).
    name: 'dashboard-send',
    entry: 'functions/api/dashboard-send/handler.ts',
    pages: ['ANY /dashboard/emails/test', 'ANY /dashboard/invitations', 'ANY /dashboard/invitations/{proxy+}'],
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // A sent email's body over INLINE_BODY_LIMIT goes to the bucket.
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
    ],
  },
  {
    // The dashboard's domain pages (docs/dashboard.md): add, verify, apply DNS, as the domains group.
    name: 'dashboard-domains',
    entry: 'functions/api/dashboard-domains/handler.ts',
    pages: ['ANY /dashboard/domains', 'ANY /dashboard/domains/{proxy+}'],
    // Adding a domain generates its 2048-bit DKIM key, as POST /domains (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // DKIM keys are sealed at creation and opened to sign the verification probe; stored DNS host
      // credentials are opened to apply (as the domains group).
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      // Verify and Apply DNS: the SES identity of a verified domain, its SES tenant association, and
      // Route 53 records with the function's own role.
      { resource: { kind: 'route53' }, access: 'manageRecords' },
      { resource: { kind: 'ses' }, access: 'manageIdentities' },
      { resource: { kind: 'ses' }, access: 'manageTenants' },
      // The domain page's "Check now": domain.health_changed (as the domains group).
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    // The API's OpenAPI 3.1 document (docs/openapi.json, written by `npm run openapi`) and the reference
    // page rendered from it. Public, and touches nothing: no grants.
    name: 'reference',
    entry: 'functions/api/reference/handler.ts',
    grants: [],
  },
];

export interface WorkerDefinition {
  name: string;
  entry: string;
  queue: QueueId;
  batchSize: number;
  /**
   * Concurrent invocations the event source may run (Lambda's maximum concurrency, 2-1000; unset = no
   * cap). The local runtime handles this many batches at once (default 2), fed by one long-polling receiver.
   */
  maxConcurrency?: number;
  /** Lambda timeout; must stay below the queue's visibility timeout. */
  timeoutSeconds: number;
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
  grants: Grant[];
}

export const WORKERS: WorkerDefinition[] = [
  {
    name: 'send-email',
    entry: 'functions/workers/send-email/handler.ts',
    queue: 'send',
    batchSize: 10,
    // Sends are paced to SES's send rate through a budget in the table (shared/adapters/store/ses-send-budget.ts):
    // more invocations only hold more emails. 10 x 10 records at ~0.1 s per SES call is ~1,000 sends a
    // second, above any SES rate the service is sold for; raise it with a higher SES quota (docs/deploy.md).
    maxConcurrency: 10,
    timeoutSeconds: 30,
    // Compose, DKIM-sign and send: ~14 ms of CPU per email, 10 per batch; half the delivery delay of 512 MB (docs/deploy.md).
    memoryMb: 1024,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'send' }, access: 'consume' },
      // Reads bodies and attachments; deletes them once SES took a message whose content is not kept (docs/redaction.md).
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      { resource: { kind: 'ses' }, access: 'sendEmail' },
      // GetAccount: SES's MaxSendRate to pace sends to, and whether the account sends (a pause is held, not failed).
      { resource: { kind: 'ses' }, access: 'readAccount' },
      // A held send (SES's rate, throttling, an account pause) goes back to the queue with a delay.
      { resource: { kind: 'queue', id: 'send' }, access: 'send' },
      // DKIM-signs with the domain's key; signs links, sealing the first link key when there is none yet.
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      // email.failed when SES refuses a message for good.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    name: 'ses-events',
    entry: 'functions/workers/ses-events/handler.ts',
    queue: 'sesEvents',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'sesEvents' }, access: 'consume' },
      // email.sent/delivered/bounced/... events.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    name: 'webhook-router',
    entry: 'functions/workers/webhook-router/handler.ts',
    queue: 'webhookEvents',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'consume' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ],
  },
  {
    name: 'webhook-delivery',
    entry: 'functions/workers/webhook-delivery/handler.ts',
    queue: 'webhookDeliveries',
    // One delivery per invocation, many at once: a slow or dead endpoint (10 s timeout) holds one
    // invocation and never delays other endpoints or events.
    batchSize: 1,
    maxConcurrency: 20,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'consume' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
      { resource: { kind: 'secretsKey' }, access: 'decrypt' },
    ],
  },
  {
    // Inbound mail: parse (mailparser: shared/adapters/received-mail/parse-message.ts), record the MX listener's SPF, DKIM
    // and DMARC results, store the parts and the record, publish email.received. One message per
    // invocation: a message may be 40 MB. Its bundle is over 1 MiB (infra/functions.ts, BUNDLE_SIZE_EXCEPTIONS).
    name: 'inbound-email',
    entry: 'functions/workers/inbound-email/handler.ts',
    queue: 'inbound',
    batchSize: 1,
    maxConcurrency: 20,
    timeoutSeconds: 120,
    // A 40 MB message in memory (the raw, then up to ~350 MB more while mailparser reads it: a 40 MB text
    // body, measured; an HTML one over 5 MB is not converted to text) and ~0.5-1.3 s of CPU to read it; a
    // typical message ~1 ms of parsing (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'inbound' }, access: 'consume' },
      // Reads the raw message, writes its parts (bodies, attachments) beside it.
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      // email.received.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    // Automation runs (docs/automations.md, "Runs"): claims a run's step, does it (a condition, a send
    // through the send core, a delay or wait as a one-time schedule), records it. One message per run step.
    name: 'automation-steps',
    entry: 'functions/workers/automation-steps/handler.ts',
    queue: 'automationSteps',
    batchSize: 10,
    maxConcurrency: 10,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'automationSteps' }, access: 'consume' },
      // A send_email step stores large bodies as POST /emails does.
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      // Delays and wait timeouts: one-time schedules into the automation-steps queue.
      { resource: { kind: 'scheduler' }, access: 'schedule' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
];

/**
 * A Lambda event filter pattern (Lambda's filter syntax), matched against each stream record in its
 * Lambda shape (`eventName`, `dynamodb.NewImage` in AttributeValue form, ...). Leaves are arrays of
 * alternatives: literal values, `{prefix}`, `{suffix}`, `{'anything-but': [...]}`, `{exists: boolean}`,
 * `{numeric: ['>', 0, ...]}`, `{'equals-ignore-case': ...}`. Several patterns of one worker are OR-ed.
 */
export interface FilterPattern {
  [field: string]: FilterPattern | FilterValue[];
}
export type FilterValue =
  | string
  | number
  | boolean
  | null
  | { prefix: string }
  | { suffix: string }
  | { 'anything-but': string | number | (string | number)[] }
  | { exists: boolean }
  | { numeric: (string | number)[] }
  | { 'equals-ignore-case': string };

/**
 * A worker fed by the table's stream (DynamoDB Streams -> Lambda event source mapping), with the
 * mapping's settings. The local cloud emulates the mapping with the same settings.
 */
export interface StreamWorkerDefinition {
  name: string;
  entry: string;
  /** Where a new mapping starts reading (later restarts resume from the checkpoint). */
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** Records per invocation (1-10000). */
  batchSize: number;
  /**
   * How long to gather records before invoking (0: invoke as soon as records are read). Lambda takes
   * whole seconds (0-300), so this must be a multiple of 1000.
   */
  maxBatchingWindowMs: number;
  /** Records matching none of these are dropped (checkpointed, never invoked); empty: every record. */
  filters: FilterPattern[];
  /** Retries of a failing batch before it goes to the on-failure queue (-1: until the records expire). */
  retryAttempts: number;
  /** Split a failing batch in two and retry the halves separately. */
  bisectBatchOnFunctionError: boolean;
  /** The handler answers `batchItemFailures`: processing resumes at the first failed record. */
  reportBatchItemFailures: boolean;
  /** SQS queue receiving a description of each batch given up (shard, sequence numbers, stream). */
  onFailure: { queueName: string; envVar: string };
  timeoutSeconds: number;
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
  grants: Grant[];
}

export const STREAM_WORKERS: StreamWorkerDefinition[] = [
  {
    // The transactional outbox: an email written `queued` (with its usage) is handed to the send queue
    // from the table's stream, so the request path never calls SQS and a crash cannot strand an email.
    name: 'outbox-relay',
    entry: 'functions/workers/outbox-relay/handler.ts',
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    // Latency first: invoke with whatever one read returned (under load reads return full batches).
    maxBatchingWindowMs: 0,
    filters: [{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['email'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-outbox-relay-failures', envVar: ENV.outboxRelayFailuresQueueUrl },
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'queue', id: 'send' }, access: 'send' },
      // email.scheduled and email.suppressed, published from the write they stand for.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
      // Deferred usage: ADD to the uncapped usage counters (the email itself is in the record).
      { resource: { kind: 'table' }, access: 'update' },
    ],
  },
  {
    // Day stats: each write of an email moves its acceptance day's counters (old vs new image): its tenant's,
    // and its account's and the deployment's (sharded) when it moved sent, bounced or complained, one
    // idempotent transaction per batch, so stats never scan emails (docs/tenants.md); then the tenants'
    // automatic pause and the reputation brake (docs/deliverability.md, "Reputation guard").
    name: 'tenant-stats',
    entry: 'functions/workers/tenant-stats/handler.ts',
    startingPosition: 'TRIM_HORIZON',
    batchSize: 500,
    // Counters, not latency: gather a second of records per write.
    maxBatchingWindowMs: 1000,
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['email'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-tenant-stats-failures', envVar: ENV.tenantStatsFailuresQueueUrl },
    timeoutSeconds: 30,
    grants: [
      // ADD to the day counters; then read a tenant's or account's window (and a tenant's id alias) to pause it.
      { resource: { kind: 'table' }, access: 'update' },
      { resource: { kind: 'table' }, access: 'read' },
    ],
  },
  {
    // tenant.paused / tenant.resumed and account.paused / account.resumed, published from the write that
    // changed the tenant's or the account's status.
    name: 'tenant-events',
    entry: 'functions/workers/tenant-events/handler.ts',
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    maxBatchingWindowMs: 0,
    filters: [{ eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: ['tenant', 'account'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-tenant-events-failures', envVar: ENV.tenantEventsFailuresQueueUrl },
    timeoutSeconds: 30,
    grants: [{ resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' }],
  },
  {
    // The outbox for runs: each run written with a pending step is handed to the automation-steps queue,
    // and the automation.* webhooks are derived from the run's old and new images (docs/automations.md).
    name: 'automation-outbox',
    entry: 'functions/workers/automation-outbox/handler.ts',
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    maxBatchingWindowMs: 0,
    filters: [{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['run'] } } } }],
    retryAttempts: 10,
    bisectBatchOnFunctionError: true,
    reportBatchItemFailures: true,
    onFailure: { queueName: 'mailservice-automation-outbox-failures', envVar: ENV.automationOutboxFailuresQueueUrl },
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'queue', id: 'automationSteps' }, access: 'send' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
];

/**
 * A function run on a fixed schedule, not fed by a queue or stream: an EventBridge rule in AWS, a timer
 * in the local cloud (localstack/cloud/scheduled-tasks.ts).
 */
export interface ScheduledTaskDefinition {
  name: string;
  entry: string;
  /** Period in AWS (an EventBridge rate: whole minutes). */
  everyMinutes: number;
  /** Period on the local cloud (LOCAL_TASK_PERIOD_MS overrides it), so a local stack recovers in seconds. */
  localEveryMs: number;
  /** Lambda timeout; below the period, so passes never overlap. */
  timeoutSeconds: number;
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
  grants: Grant[];
}

export const SCHEDULED_TASKS: ScheduledTaskDefinition[] = [
  {
    // Re-drives stuck work found in the due index (docs/reliability.md).
    name: 'reconciler',
    entry: 'functions/tasks/reconciler/handler.ts',
    everyMinutes: 1,
    localEveryMs: 2000,
    timeoutSeconds: 50,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'send' }, access: 'send' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
      // Automation runs whose step or wake-up was lost.
      { resource: { kind: 'queue', id: 'automationSteps' }, access: 'send' },
      // email.delivery_delayed and email.failed for sent emails without an outcome.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
      // Raw inbound messages stored and never queued are deleted (docs/inbound.md).
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      // SES tenants without a tenant of ours are deleted, and missing ones of ours created again (docs/ses-tenants.md).
      { resource: { kind: 'ses' }, access: 'sweepTenants' },
      // Domains SES was still verifying at their check: asked again until it has (docs/domains.md).
      { resource: { kind: 'ses' }, access: 'readIdentities' },
    ],
  },
  {
    // Domains whose health check is due (daily, and just verified): checked in DNS and stored; a change
    // raises domain.health_changed (docs/deliverability.md, "Domain health").
    name: 'domain-health',
    entry: 'functions/tasks/domain-health/handler.ts',
    everyMinutes: 1,
    localEveryMs: 2000,
    timeoutSeconds: 50,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
      // Hosted MTA-STS policy hosts being provisioned: their certificate's validation followed, their custom
      // domain name created once it is issued (docs/deliverability.md, "Hosted MTA-STS policy").
      ...MTA_STS_HOSTING_GRANTS,
    ],
  },
];

/**
 * The SMTP relay (docs/smtp.md): one long-running process per Fargate task behind a Network Load Balancer
 * on 587. It calls the send core directly, so it holds what the send path needs and nothing more: the
 * table (the send's one read and its accept), the mail bucket (the raw message) and the scheduler
 * (scheduled sends). The image is built from the relay's bundle (`npm run build`:
 * `<functionsDir>/smtp-relay/index.js` and the Dockerfile beside it).
 */
export interface SmtpRelayDefinition {
  name: string;
  entry: string;
  /** The public port (the load balancer's listener). */
  port: number;
  /** The container's port: unprivileged, as the image runs as a non-root user. */
  containerPort: number;
  /** Fargate task size: CPU units (1024 = one vCPU) and MiB. */
  cpu: number;
  memoryMiB: number;
  /** Tasks once the TLS secret is given (context `smtpTlsSecretArn`); 0 until then. */
  desiredCount: number;
  /** ECS waits this long after SIGTERM (the relay lets sessions finish within SMTP_CLOSE_TIMEOUT_S, below it). */
  stopTimeoutSeconds: number;
  /** The load balancer's health check of each task: a TCP connect to the container port. */
  healthCheck: { protocol: 'TCP'; intervalSeconds: number; healthyThreshold: number; unhealthyThreshold: number };
  /** Variables receiving the STARTTLS key and certificate PEMs from the Secrets Manager secret's `key` and `cert` fields. */
  tlsSecretEnv: { key: string; cert: string };
  /**
   * The inbound MX listener (docs/inbound.md) runs in the same task and process: the load balancer's
   * `port` (25) to the container's `containerPort` (MX_PORT in `environment`). It checks each message's
   * SPF, DKIM and DMARC over outbound DNS (the VPC resolver, or DNS_RESOLVERS): no grant needed.
   */
  mx: { port: number; containerPort: number };
  /** Settings of the relay's environment (shared/doors/smtp/relay-config.ts, shared/doors/mx/mx-config.ts). */
  environment: Record<string, string>;
  /**
   * The send path's needs, a subset of the `emails` API group's grants: no send queue (the send core writes
   * the email and the outbox stream enqueues it; test events are an API-only route), no SES and no KMS (the
   * send-email worker signs and sends); plus, for the MX listener, sending to the inbound queue.
   */
  grants: Grant[];
}

export const SMTP_RELAY: SmtpRelayDefinition = {
  name: 'smtp-relay',
  entry: 'functions/smtp-relay/main.ts',
  port: 587,
  containerPort: 2587,
  cpu: 512,
  memoryMiB: 2048,
  desiredCount: 2,
  stopTimeoutSeconds: 60,
  healthCheck: { protocol: 'TCP', intervalSeconds: 10, healthyThreshold: 2, unhealthyThreshold: 2 },
  tlsSecretEnv: { key: 'SMTP_TLS_KEY', cert: 'SMTP_TLS_CERT' },
  mx: { port: 25, containerPort: 2525 },
  environment: { SMTP_PORT: '2587', SMTP_CLOSE_TIMEOUT_S: '45', SMTP_MAX_CLIENTS: '500', SMTP_MAX_BUFFERED_MB: '1024', MX_PORT: '2525' },
  grants: [
    { resource: { kind: 'table' }, access: 'readWrite' },
    // The relay's raw messages (raw/), and the MX listener's (inbound/), written before its 250.
    { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
    { resource: { kind: 'scheduler' }, access: 'schedule' },
    // The MX listener hands each stored message to the inbound worker.
    { resource: { kind: 'queue', id: 'inbound' }, access: 'send' },
  ],
};

/** Settings (not resources) every function reads from the environment, with their defaults. */
export const SETTINGS = DEFAULT_SETTINGS;
