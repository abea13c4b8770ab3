/**
 * The core of every composition root: the configuration, the clock, the DNS resolver and the table's
 * repositories (DynamoDB only). Each function adds the modules of ./ it uses (queues, the mail bucket,
 * SES, schedules, the secrets key, ...), so its bundle holds only the clients and libraries it calls.
 */
import { createDynamoClient } from '../adapters/aws/dynamo-client';
import { serviceClock } from '../adapters/clock';
import { scryptPasswords } from '../domain/dashboard/password-hash';
import { loadConfig, type Config } from '../config/config';
import { NodeDnsResolver, parseResolvers } from '../adapters/dns/node-dns-resolver';
import type { Clock } from '../ports/clock';
import { AccountRepository } from '../adapters/store/accounts';
import { AccountBounceSuppressionLookup } from '../adapters/store/account-bounce-suppression';
import { ApiKeyRepository } from '../adapters/store/api-keys';
import { AttachmentUploadRepository } from '../adapters/store/attachment-uploads';
import { AutomationRepository } from '../adapters/store/automations';
import { CategoryOptOutRepository } from '../adapters/store/category-opt-outs';
import { DashboardUserRepository } from '../adapters/store/dashboard-users';
import { DnsProviderRepository } from '../adapters/store/dns-providers';
import { DomainRepository } from '../adapters/store/domains/repository';
import { DueWorkIndex } from '../adapters/store/due-work';
import { EmailListingRepository } from '../adapters/store/email-listing';
import { EmailRepository } from '../adapters/store/emails/repository';
import { IdempotencyStore } from '../adapters/store/idempotency';
import { LinkKeyRepository } from '../adapters/store/link-keys';
import { ImportRepository } from '../adapters/store/imports';
import { RateLimitRepository } from '../adapters/store/rate-limits';
import { InboundRawMarkerRepository } from '../adapters/store/inbound-raw-markers';
import { ReceivedEmailRepository } from '../adapters/store/received-emails';
import { RunRepository } from '../adapters/store/runs';
import { SendContextReader } from '../adapters/store/send-context';
import { SendContextCache } from '../adapters/store/send-context-cache';
import { SesSendBudget } from '../adapters/store/ses-send-budget';
import { SessionRepository } from '../adapters/store/sessions';
import { OidcFlowRepository } from '../adapters/store/oidc-flows';
import { SmtpAuthFailureRepository } from '../adapters/store/smtp-auth-failures';
import { SmtpCredentialRepository } from '../adapters/store/smtp-credentials';
import { SuppressionRepository } from '../adapters/store/suppressions';
import { TemplateRepository } from '../adapters/store/templates';
import { TenantStatsRepository } from '../adapters/store/tenant-stats';
import { SesTenantSweepRepository } from '../adapters/store/ses-tenant-sweep';
import { TenantScheduledRepository } from '../adapters/store/tenant-scheduled';
import { TenantRepository } from '../adapters/store/tenants';
import { UsageLedger } from '../adapters/store/usage';
import { WebhookDeliveryRepository } from '../adapters/store/webhook-deliveries';
import { WebhookRepository } from '../adapters/store/webhooks';
import { AuditLogRepository } from '../adapters/store/audit-log';
import { ErasureRepository } from '../adapters/store/erasures';
import { ExportRepository } from '../adapters/store/exports';
import { InvitationRepository } from '../adapters/store/invitations';
import { ReceivingDomains } from '../usecases/inbound/receiving-domains';
import { PublishedTemplates } from '../usecases/send/published-templates';
import { SendContextLoader } from '../usecases/send/send-context-loader';
import { TtlCache } from '../lib/ttl-cache';
import { MailDomains } from '../usecases/address-validation/mail-domains';

export function buildCore(config: Config = loadConfig()) {
  const table = { client: createDynamoClient(config), name: config.tableName };
  const clock: Clock = serviceClock;
  const idempotency = new IdempotencyStore(table);
  const domains = new DomainRepository(table, config.recovery);
  const templates = new TemplateRepository(table);
  const apiKeys = new ApiKeyRepository(table);
  const tenants = new TenantRepository(table);
  const sendContext = new SendContextReader(table, new SendContextCache(config.hotLookupsCacheMs));
  const publishedTemplates = new PublishedTemplates(templates);
  const dashboardUsers = new DashboardUserRepository(table);
  const dns = new NodeDnsResolver(parseResolvers(config.dnsResolvers));
  /** The process's one send-context loader: it owns the send path's caches (docs/reference/caches.md). */
  const sendContextLoader = new SendContextLoader({
    sendContext,
    apiKeys,
    tenants,
    domains,
    publishedTemplates,
    sandboxDomain: config.sandboxDomain,
  });
  return {
    config,
    clock,
    /** The table handle: what modules built on the core make their repositories with (./deliverability.ts). */
    table,
    sandboxDomain: config.sandboxDomain,
    dashboardUrl: config.dashboardUrl,
    /** Dashboard passwords: scrypt with today's parameters (shared/domain/dashboard/password-hash.ts). */
    passwords: scryptPasswords(),
    dnsSettings: { returnPathHost: config.returnPathHost, spfInclude: config.spfInclude, inboundMxHost: config.inboundMxHost },
    accounts: new AccountRepository(table),
    tenants,
    /** A tenant's scheduled emails, for its deletion to cancel them. */
    tenantScheduled: new TenantScheduledRepository(table),
    tenantStats: new TenantStatsRepository(table),
    apiKeys,
    smtpCredentials: new SmtpCredentialRepository(table),
    /** Failed SMTP relay logins, shared by every relay task (shared/doors/smtp/auth-throttle.ts). */
    smtpAuthFailures: new SmtpAuthFailureRepository(table),
    emails: new EmailRepository(table, idempotency, config.recovery),
    /** The send workers' shared pace to SES's send rate (the send worker only). */
    sesSendBudget: new SesSendBudget(table),
    attachmentUploads: new AttachmentUploadRepository(table),
    sendContext,
    /** What a send is decided on, read in one round trip (shared/usecases/send/send-context-loader.ts). */
    sendContextLoader,
    /** Which account each API key or SMTP credential belongs to: the loader's cache, shared by authentication. */
    keyAccounts: sendContextLoader.keyAccounts,
    emailListing: new EmailListingRepository(table),
    rateLimits: new RateLimitRepository(table),
    /** The dashboard's users and sessions (docs/dashboard.md). */
    dashboardUsers,
    sessions: new SessionRepository(table),
    /** OpenID Connect sign-ins under way (docs/dashboard.md, "Sign-in with OpenID Connect"). */
    oidcFlows: new OidcFlowRepository(table),
    /** Dashboard invitations (docs/dashboard.md, "Teams and roles"): accepting one counts owners with the users'. */
    invitations: new InvitationRepository(table, dashboardUsers),
    /** The audit log (docs/audit-log.md): written by the API's and the dashboard's frames and by sign-in. */
    auditLog: new AuditLogRepository(table),
    /** Erasures and exports (docs/erasure.md, docs/exports.md). */
    erasures: new ErasureRepository(table),
    exports: new ExportRepository(table),
    suppressions: new SuppressionRepository(table),
    /** Which bounce categories suppress an account's addresses, kept HOT_LOOKUPS_CACHE_MS (the SES events worker). */
    bounceSuppression: new AccountBounceSuppressionLookup(table, config.hotLookupsCacheMs),
    categoryOptOuts: new CategoryOptOutRepository(table),
    domains,
    usage: new UsageLedger(table),
    idempotency,
    webhooks: new WebhookRepository(table),
    webhookDeliveries: new WebhookDeliveryRepository(table, config.recovery),
    /** Past-due unfinished work (the reconciler's input). */
    dueWork: new DueWorkIndex(table),
    /** Where the reconciler's SES tenants sweep is. */
    sesTenantSweep: new SesTenantSweepRepository(table),
    /** SSRF policy of webhook URLs: public addresses only; loopback too where WEBHOOK_ALLOW_LOOPBACK is set (local cloud). */
    webhookPolicy: { allowLoopback: config.webhookAllowLoopback },
    /** DNS_RESOLVERS (the DNS emulator on the local cloud): domain verification, webhook URL checks, the MX listener's SPF/DKIM/DMARC. */
    dns,
    /** Domains' mail hosts (MX, implicit MX, null MX) through `dns`, kept a minute: address validation and the send's `validate: true`. */
    mailDomains: new MailDomains(dns),
    /** DNS apply (docs/domains.md): stored DNS host credentials (sealed; the adapters are ./dns-apply.ts). */
    dnsProviders: new DnsProviderRepository(table),
    /** The link keys (sealed; ./secrets.ts signs with them). */
    linkKeys: new LinkKeyRepository(table),
    /** Inbound mail (docs/inbound.md): the MX listener's recipient check (its SPF/DKIM/DMARC go through `dns`), the records. */
    receivingDomains: new ReceivingDomains({ domains, clock }),
    receivedEmails: new ReceivedEmailRepository(table),
    /** Whether each stored raw inbound message was queued (the MX listener, the inbound worker, the reconciler). */
    inboundRawMarkers: new InboundRawMarkerRepository(table),
    templates,
    /** What sends render: the published pointer per send, each immutable version read once per process. */
    publishedTemplates,
    /** Automations (docs/automations.md): definitions, and the active ones by trigger or cancel event. */
    // The active automations of an account's event kept for HOT_LOOKUPS_CACHE_MS (1,000 events' partitions).
    automations: new AutomationRepository(table, new TtlCache(config.hotLookupsCacheMs, 1_000)),
    /** Automation runs: each transition one conditional write (shared/adapters/store/runs.ts). */
    runs: new RunRepository(table, config.recovery),
    /** Imports (docs/imports.md): their records and settings (the provider APIs they read: ./imports.ts). */
    imports: new ImportRepository(table),
    importSettings: {
      budgetMs: config.imports.budgetMs,
      maxStretchesPerRequest: config.imports.maxStretchesPerRequest,
      leaseMs: config.imports.budgetMs + 35_000,
      apiBaseUrl: config.linksBaseUrl || 'http://localhost:3000',
    },
  };
}

export type CoreServices = ReturnType<typeof buildCore>;
