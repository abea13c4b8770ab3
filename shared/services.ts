/**
 * The composition root: builds clients, adapters and repositories once per cold start (not per
 * request). Entry points take what they need from here.
 */
import { loadConfig, type Config } from './config';
import { createAwsClients } from './aws/clients';
import { S3BlobStore } from './aws/s3-blob-store';
import { SesMailer } from './aws/ses-mailer';
import { SesV2Tenants } from './aws/ses-tenants';
import { SqsSendQueue } from './aws/sqs-send-queue';
import { SqsWebhookDeliveryQueue } from './aws/sqs-webhook-delivery-queue';
import { SqsEventPublisher } from './aws/sqs-event-publisher';
import { SqsInboundQueue } from './aws/sqs-inbound-queue';
import { checkAuthentication, type AuthenticationInput } from './inbound/check-authentication';
import { parseInbound } from './inbound/parse-message';
import { ReceivedEmailRepository } from './store/received-emails';
import { TemplateRepository } from './store/templates';
import { AutomationRepository } from './store/automations';
import { ReceivingDomains } from './usecases/inbound/receiving-domains';
import { EventBridgeEmailScheduler, EventBridgeStepScheduler } from './aws/eventbridge-schedules';
import { SqsAutomationStepQueue } from './aws/sqs-automation-step-queue';
import type { Clock } from './ports';
import { serviceClock } from './clock';
import { AccountRepository } from './store/accounts';
import { ApiKeyRepository } from './store/api-keys';
import { SmtpCredentialRepository } from './store/smtp-credentials';
import { EmailRepository } from './store/emails';
import { SendContextReader } from './store/send-context';
import { AttachmentUploadRepository } from './store/attachment-uploads';
import { SuppressionRepository } from './store/suppressions';
import { CategoryOptOutRepository } from './store/category-opt-outs';
import { DomainRepository } from './store/domains';
import { UsageLedger } from './store/usage';
import { IdempotencyStore } from './store/idempotency';
import { EmailListingRepository } from './store/email-listing';
import { RateLimitRepository } from './store/rate-limits';
import { DashboardUserRepository } from './store/dashboard-users';
import { SessionRepository } from './store/sessions';
import { WebhookRepository } from './store/webhooks';
import { WebhookDeliveryRepository } from './store/webhook-deliveries';
import { TenantRepository } from './store/tenants';
import { TenantStatsRepository } from './store/tenant-stats';
import { DueWorkIndex } from './store/due-work';
import { NodeDnsResolver, parseResolvers } from './dns/node-dns-resolver';
import { lazySecretBox } from './secrets/lazy-secret-box';
import { cachingSecretBox } from './secrets/caching-secret-box';
import { secretBoxFromEnv } from './secrets/from-environment';
import { PublishedTemplates } from './usecases/send/published-templates';
import { RunRepository } from './store/runs';
import { MigrationRepository } from './store/migrations';
import type { ProviderCredentials } from './domain/migrations/source';
import { createProviderSource } from './providers';
import { providerBaseUrls } from './providers/base-urls';
import { DkimKeys } from './usecases/dkim-keys';
import { tenantCleanupSteps } from './usecases/tenant-cleanup';
import { LinkKeyRepository } from './store/link-keys';
import { LinkSigner } from './usecases/links/link-signing';
import { DnsProviderRepository } from './store/dns-providers';
import type { DnsHostRequest } from './domain/domains/dns-apply';
import { createDnsHost, type DnsHostClients } from './dns-hosts';

export function buildServices(config: Config = loadConfig()) {
  const clients = createAwsClients(config);
  const table = { client: clients.dynamo, name: config.tableName };
  const clock: Clock = serviceClock;
  const idempotency = new IdempotencyStore(table);
  const domains = new DomainRepository(table);
  const apiKeys = new ApiKeyRepository(table);
  const smtpCredentials = new SmtpCredentialRepository(table);
  const suppressions = new SuppressionRepository(table);
  const categoryOptOuts = new CategoryOptOutRepository(table);
  const webhooks = new WebhookRepository(table);
  const templates = new TemplateRepository(table);
  // Created on first use: only the functions that hold a grant on the secrets key touch it.
  /** Our tenants as SES v2 tenants (docs/ses-tenants.md). */
  const sesTenants = new SesV2Tenants(clients.ses, { region: config.region, accountId: config.accountId, configurationSet: config.sesConfigurationSet });
  const dns = new NodeDnsResolver(parseResolvers(config.dnsResolvers));
  const secretBox = cachingSecretBox(lazySecretBox(() => secretBoxFromEnv(process.env, config)));
  const dnsHostClients: DnsHostClients = {};
  return {
    config,
    clock,
    sandboxDomain: config.sandboxDomain,
    dashboardUrl: config.dashboardUrl,
    dnsSettings: { returnPathHost: config.returnPathHost, spfInclude: config.spfInclude, inboundMxHost: config.inboundMxHost },
    accounts: new AccountRepository(table),
    tenants: new TenantRepository(table),
    tenantStats: new TenantStatsRepository(table),
    apiKeys,
    smtpCredentials,
    emails: new EmailRepository(table, idempotency, config.recovery),
    attachmentUploads: new AttachmentUploadRepository(table),
    sendContext: new SendContextReader(table),
    emailListing: new EmailListingRepository(table),
    rateLimits: new RateLimitRepository(table),
    /** The dashboard's users and sessions (docs/dashboard.md). */
    dashboardUsers: new DashboardUserRepository(table),
    sessions: new SessionRepository(table),
    suppressions,
    categoryOptOuts,
    sendQueue: new SqsSendQueue(clients.sqs, config.sendQueueUrl),
    events: new SqsEventPublisher(clients.sqs, config.webhookEventsQueueUrl),
    blobs: new S3BlobStore(clients.s3, config.mailBucket),
    mailer: new SesMailer(clients.ses, config.sesConfigurationSet),
    sesTenants,
    scheduler: new EventBridgeEmailScheduler(clients.scheduler, {
      group: config.scheduleGroup,
      targetArn: config.schedulerTargetArn,
      roleArn: config.schedulerRoleArn,
    }),
    domains,
    /** DKIM keys of sending domains, parsed once per process (domain facts cached: see dkim-keys.ts). */
    dkimKeys: new DkimKeys({ domains, secretBox, clock }),
    usage: new UsageLedger(table),
    idempotency,
    webhooks,
    /** What deleting a tenant undoes, in order (run by deleteTenant; each step idempotent and resumable). */
    tenantCleanup: tenantCleanupSteps({ apiKeys, smtpCredentials, domains, suppressions, categoryOptOuts, webhooks, sesTenants, clock }),
    webhookDeliveries: new WebhookDeliveryRepository(table, config.recovery),
    /** Past-due unfinished work (the reconciler's input). */
    dueWork: new DueWorkIndex(table),
    webhookDeliveryQueue: new SqsWebhookDeliveryQueue(clients.sqs, config.webhookDeliveriesQueueUrl),
    /** SSRF policy of webhook URLs: public addresses only; loopback too where WEBHOOK_ALLOW_LOOPBACK is set (local cloud). */
    webhookPolicy: { allowLoopback: config.webhookAllowLoopback },
    dns,
    secretBox,
    /** DNS apply (docs/domains.md): stored DNS host credentials (sealed), and the adapter for a host and its credentials, one per request. */
    dnsProviders: new DnsProviderRepository(table),
    dnsHost: (request: DnsHostRequest) => createDnsHost(request, config, dnsHostClients),
    /** Signed links (docs/tracking.md): the send worker's `urls()`, the links group's `resolve`, the admin CLI's `rotateLinkKey`. */
    linkSigning: new LinkSigner({ linkKeys: new LinkKeyRepository(table), secretBox, clock, baseUrl: config.linksBaseUrl }),
    /** Inbound mail (docs/inbound.md): the MX listener's recipient check and hand-over, the worker's parsing and checks, the records. */
    receivingDomains: new ReceivingDomains({ domains, clock }),
    inboundQueue: new SqsInboundQueue(clients.sqs, config.inboundQueueUrl),
    receivedEmails: new ReceivedEmailRepository(table),
    templates,
    /** Automations (docs/automations.md): definitions, and the active ones by trigger or cancel event. */
    automations: new AutomationRepository(table),
    /** Automation runs: each transition one conditional write (shared/store/runs.ts). */
    runs: new RunRepository(table, config.recovery),
    /** The automation-steps queue (a run's step is due) and the one-time schedules that wake waiting steps. */
    stepQueue: new SqsAutomationStepQueue(clients.sqs, config.automationStepsQueueUrl),
    stepScheduler: new EventBridgeStepScheduler(clients.scheduler, {
      group: config.scheduleGroup,
      targetArn: config.automationStepsQueueArn,
      roleArn: config.schedulerRoleArn,
    }),
    /** What sends render: the published pointer per send, each immutable version read once per process. */
    publishedTemplates: new PublishedTemplates(templates),
    parseInbound,
    checkAuthentication: (input: AuthenticationInput) => checkAuthentication(input, (name, rrtype) => dns.resolve(name, rrtype)),
    mxHostname: config.inboundMxHost,
    /** Imports (docs/imports.md): their records, the provider APIs they read (base URLs from the environment), settings. */
    migrations: new MigrationRepository(table),
    providerSource: (credentials: ProviderCredentials) => createProviderSource(credentials, providerBaseUrls(process.env)),
    importSettings: {
      budgetMs: config.imports.budgetMs,
      maxStretchesPerRequest: config.imports.maxStretchesPerRequest,
      leaseMs: config.imports.budgetMs + 35_000,
      apiBaseUrl: config.linksBaseUrl || 'http://localhost:3000',
    },
  };
}

export type Services = ReturnType<typeof buildServices>;
