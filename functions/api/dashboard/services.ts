/**
 * What the main dashboard function uses: sessions, and the use cases of the areas it serves (keys, SMTP
 * credentials, webhooks, suppressions, tenants, templates, automations, imports' reports, and the
 * session doors /api/events and /api/webhooks), hence the table, the queues (a webhook delivery's
 * replay) and the secrets key (webhook signing secrets); not the mail bucket, SES or DNS, which only the
 * emails and domains pages use (functions/api/dashboard-emails, dashboard-domains).
 * Its handler composes exactly this (shared/services/).
 */
import type {
  AccessServices,
  AutomationServices,
  EmailServices,
  ImportServices,
  MessagingServices,
  OidcServices,
  Platform,
  SecretServices,
  SuppressionServices,
  TeamServices,
  TemplateServices,
  TenantServices,
  UsageServices,
  WebhookServices,
} from '#shared/services';

/** `oidc`: the deployment's OpenID Connect provider (docs/dashboard.md), absent or null when it has none. */
export type DashboardServices = Platform &
  AccessServices &
  TeamServices &
  TenantServices &
  UsageServices &
  TemplateServices &
  AutomationServices &
  SuppressionServices &
  EmailServices &
  WebhookServices &
  ImportServices &
  MessagingServices &
  SecretServices &
  Partial<OidcServices>;
