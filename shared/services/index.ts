/**
 * The composition roots: clients, adapters and repositories built once per cold start (not per request).
 *
 * Each Lambda builds only the capabilities it uses, from the modules of this folder (its handler composes
 * them: functions/api/<group>/handler.ts, functions/workers/<name>/handler.ts), so its import closure is its
 * data footprint, held to its grants by test/infra/function-imports.test.ts:
 *
 *   ./platform.ts       config, clock, the table's handle, the DNS resolver               every function
 *   ./access.ts         accounts, API keys, SMTP credentials, rate limits, idempotency, audit   every door
 *   ./emails.ts         emails from acceptance to outcome, their listing, attachments
 *   ./usage.ts          the plan counters sends are held to, the outbox relay's deferred counts
 *   ./sending.ts        what a send is decided on (the send-context loader)               (access, tenants, domains, templates)
 *   ./delivery.ts       the send worker's sending-domain facts and SES pacing             (domains)
 *   ./tenants.ts        tenants, their scheduled emails, their day counters
 *   ./domains.ts        domains, their DNS settings, stored DNS host credentials
 *   ./templates.ts      templates and the published versions sends render
 *   ./suppressions.ts   suppressions, category opt-outs, which bounces suppress
 *   ./webhooks.ts       webhook endpoints and deliveries
 *   ./automations.ts    automations and their runs
 *   ./inbound.ts        received emails, the MX's recipient check                          (domains)
 *   ./team.ts           the dashboard's users, sessions, sign-ins, invitations
 *   ./privacy.ts        erasures and exports
 *   ./recovery.ts       the reconciler's past-due work and SES tenants sweep
 *   ./deliverability.ts domain health, DMARC reports, the accounts' day counters
 *   ./mail-domains.ts   domains' mail hosts (address validation, `validate: true`)         DNS
 *   ./messaging.ts      the SQS queues                                                     SQS
 *   ./blobs.ts          the mail bucket                                                    S3
 *   ./ses.ts            sending, SES tenants                                               SESv2
 *   ./tenant-cleanup.ts what deleting a tenant undoes                                      (SES tenants)
 *   ./schedules.ts      one-time schedules                                                 EventBridge Scheduler
 *   ./secrets.ts        the secrets key, link keys, signed links                           KMS (or the local key file)
 *   ./dns-apply.ts      DNS host adapters                                                  Route 53, Cloudflare
 *   ./imports.ts        imports' records and settings
 *   ./import-providers.ts the provider APIs imports read                                 SendGrid, Postmark, Mailgun
 *   ./oidc.ts           the dashboard's OpenID Connect provider (when configured)          openid-client
 *   ./address-validation.ts the disposable-domain list of address validation             disposable-email-domains-js
 *   ./mta-sts-hosting.ts hosted MTA-STS policies (store)
 *   ./mta-sts-provisioning.ts their hosts' certificates and domain names               ACM, API Gateway (the task only)
 *   ./link-domains.ts   link domains links.<domain> (store; provisioned as MTA-STS hosts are)
 *
 * A module builds what its capability keeps (a repository is an object holding the table's handle);
 * what it reads of another capability it takes as an argument, so each is built once per process.
 * `buildServices()` is all of them at once: the admin CLI, benchmarks and tests (the SMTP relay and MX
 * listener compose their capabilities as the functions do: functions/smtp-relay/main.ts). An app factory
 * takes the narrow type it needs, so `Services` (every module) always fits.
 */
import { loadConfig, type Config } from '../config/config';
import type { AccessServices } from './access';
import { buildValidation, type ValidationServices } from './address-validation';
import { buildAutomations, type AutomationServices } from './automations';
import { buildBlobs, type BlobServices } from './blobs';
import { buildDelivery, type DeliveryServices } from './delivery';
import { buildDeliverability, type DeliverabilityServices } from './deliverability';
import { buildDnsApply, type DnsApplyServices } from './dns-apply';
import type { DomainServices } from './domains';
import type { EmailServices } from './emails';
import { buildImportProviders, type ImportProviderServices } from './import-providers';
import { buildImports, type ImportServices } from './imports';
import { buildInbound, type InboundServices } from './inbound';
import { buildMailDomains, type MailDomainServices } from './mail-domains';
import { buildMessaging, type MessagingServices } from './messaging';
import { buildLinkDomains, type LinkDomainServices } from './link-domains';
import { buildMtaStsHosting, type MtaStsHostingServices } from './mta-sts-hosting';
import { buildMtaStsProvisioning, type MtaStsProvisioningServices } from './mta-sts-provisioning';
import { buildOidc, type OidcServices } from './oidc';
import { buildPlatform, type Platform } from './platform';
import { buildPrivacy, type PrivacyServices } from './privacy';
import { buildRecovery, type RecoveryServices } from './recovery';
import { buildSchedules, type ScheduleServices } from './schedules';
import { buildSecrets, type SecretServices } from './secrets';
import { buildSendingStack, type SendingServices, type SendingStackServices } from './sending';
import { buildSes, type SesServices } from './ses';
import { buildSuppressions, type SuppressionServices } from './suppressions';
import { buildTeam, type TeamServices } from './team';
import type { TemplateServices } from './templates';
import { buildTenantCleanup, type TenantCleanupServices } from './tenant-cleanup';
import type { TenantServices } from './tenants';
import type { UsageServices } from './usage';
import { buildWebhooks, type WebhookServices } from './webhooks';

export type {
  AccessServices,
  AutomationServices,
  BlobServices,
  DeliverabilityServices,
  DeliveryServices,
  DnsApplyServices,
  DomainServices,
  EmailServices,
  ImportProviderServices,
  ImportServices,
  InboundServices,
  MailDomainServices,
  MessagingServices,
  MtaStsHostingServices,
  LinkDomainServices,
  MtaStsProvisioningServices,
  OidcServices,
  Platform,
  PrivacyServices,
  RecoveryServices,
  ScheduleServices,
  SecretServices,
  SendingServices,
  SendingStackServices,
  SesServices,
  SuppressionServices,
  TeamServices,
  TemplateServices,
  TenantCleanupServices,
  TenantServices,
  UsageServices,
  ValidationServices,
  WebhookServices,
};

/** What a door that sends (and schedules) composes: the emails group, the provider-compatible doors. */
export type SendDoorServices = Platform & SendingStackServices & MailDomainServices & MessagingServices & BlobServices & ScheduleServices;

export type Services = Platform &
  SendingStackServices &
  SuppressionServices &
  WebhookServices &
  AutomationServices &
  InboundServices &
  TeamServices &
  PrivacyServices &
  RecoveryServices &
  MailDomainServices &
  MessagingServices &
  BlobServices &
  SesServices &
  TenantCleanupServices &
  ScheduleServices &
  SecretServices &
  DnsApplyServices &
  ImportServices &
  ImportProviderServices &
  OidcServices &
  ValidationServices &
  DeliverabilityServices &
  DeliveryServices &
  MtaStsHostingServices &
  LinkDomainServices &
  MtaStsProvisioningServices;

export function buildServices(config: Config = loadConfig()): Services {
  const platform = buildPlatform(config);
  const stack = buildSendingStack(platform);
  const suppressions = buildSuppressions(platform);
  const webhooks = buildWebhooks(platform);
  const ses = buildSes(config);
  const secrets = buildSecrets(platform);
  return {
    ...platform,
    ...stack,
    ...suppressions,
    ...webhooks,
    ...buildAutomations(platform),
    ...buildInbound(platform, stack),
    ...buildTeam(platform),
    ...buildPrivacy(platform),
    ...buildRecovery(platform),
    ...buildMailDomains(platform),
    ...buildMessaging(platform),
    ...buildBlobs(config),
    ...ses,
    ...buildTenantCleanup({ ...platform, ...stack, ...suppressions, ...webhooks, ...ses }),
    ...buildSchedules(config),
    ...secrets,
    ...buildDnsApply(config),
    ...buildImports(platform),
    ...buildImportProviders(),
    ...buildOidc(config, secrets),
    ...buildValidation(),
    ...buildDeliverability(platform),
    ...buildDelivery(platform, stack),
    ...buildMtaStsHosting(platform),
    ...buildLinkDomains(platform),
    ...buildMtaStsProvisioning(platform),
  };
}
