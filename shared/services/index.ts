/**
 * The composition roots: clients, adapters and repositories built once per cold start (not per request).
 *
 * Each Lambda builds only what it uses, from the modules of this folder (its handler composes them:
 * functions/api/<group>/handler.ts, functions/workers/<name>/handler.ts), so its bundle holds only the
 * AWS clients and libraries it calls:
 *
 *   ./core.ts       config, clock, DNS resolver, the table's repositories (DynamoDB)   every function
 *   ./messaging.ts  the SQS queues                                                     SQS
 *   ./blobs.ts      the mail bucket                                                    S3
 *   ./ses.ts        sending, SES tenants                                               SESv2
 *   ./tenant-cleanup.ts  what deleting a tenant undoes                                  (SES tenants)
 *   ./schedules.ts  one-time schedules                                                 EventBridge Scheduler
 *   ./secrets.ts    the secrets key, DKIM keys, signed links                           KMS (or the local key file)
 *   ./dns-apply.ts  DNS host adapters                                                  Route 53, Cloudflare
 *   ./imports.ts    the provider APIs imports read                                     SendGrid, Postmark, Mailgun
 *   ./oidc.ts       the dashboard's OpenID Connect provider (when configured)          openid-client
 *   ./address-validation.ts the disposable-domain list of address validation                    disposable-email-domains-js
 *   ./mta-sts.ts    hosted MTA-STS policies (store); their hosts' provisioning          (ACM, API Gateway: the task only)
 *
 * `buildServices()` is all of them at once: the local cloud's own processes (the SMTP relay and MX
 * listener), the admin CLI, benchmarks and tests. An app factory takes the narrow type it needs, so
 * `Services` (every module) always fits.
 */
import { loadConfig, type Config } from '../config/config';
import { buildBlobs, type BlobServices } from './blobs';
import { buildCore, type CoreServices } from './core';
import { buildDnsApply, type DnsApplyServices } from './dns-apply';
import { buildImports, type ImportServices } from './imports';
import { buildMessaging, type MessagingServices } from './messaging';
import { buildOidc, type OidcServices } from './oidc';
import { buildSchedules, type ScheduleServices } from './schedules';
import { buildSecrets, type SecretServices } from './secrets';
import { buildSes, type SesServices } from './ses';
import { buildTenantCleanup, type TenantCleanupServices } from './tenant-cleanup';
import { buildValidation, type ValidationServices } from './address-validation';
import { buildDeliverability, type DeliverabilityServices } from './deliverability';
import { buildMtaStsHosting, buildMtaStsProvisioning, type MtaStsHostingServices, type MtaStsProvisioningServices } from './mta-sts';

export type {
  BlobServices,
  CoreServices,
  DeliverabilityServices,
  DnsApplyServices,
  ImportServices,
  MessagingServices,
  MtaStsHostingServices,
  MtaStsProvisioningServices,
  OidcServices,
  ScheduleServices,
  SecretServices,
  SesServices,
  TenantCleanupServices,
  ValidationServices,
};

export type Services = CoreServices &
  MessagingServices &
  BlobServices &
  SesServices &
  TenantCleanupServices &
  ScheduleServices &
  SecretServices &
  DnsApplyServices &
  ImportServices &
  OidcServices &
  ValidationServices &
  DeliverabilityServices &
  MtaStsHostingServices &
  MtaStsProvisioningServices;

export function buildServices(config: Config = loadConfig()): Services {
  const core = buildCore(config);
  const ses = buildSes(config);
  const secrets = buildSecrets(config, core);
  return {
    ...core,
    ...buildMessaging(config),
    ...buildBlobs(config),
    ...ses,
    ...buildTenantCleanup({ ...core, ...ses }),
    ...buildSchedules(config),
    ...secrets,
    ...buildDnsApply(config),
    ...buildImports(),
    ...buildOidc(config, secrets),
    ...buildValidation(),
    ...buildDeliverability(core),
    ...buildMtaStsHosting(core),
    ...buildMtaStsProvisioning(core),
  };
}
