/**
 * What the main dashboard function uses: sessions, and the use cases of the areas it serves (keys, SMTP
 * credentials, webhooks, suppressions, tenants, templates, automations, imports' reports, and the
 * session doors /api/events and /api/webhooks), hence the table, the queues (a webhook delivery's
 * replay) and the secrets key (webhook signing secrets); not the mail bucket, SES or DNS, which only the
 * emails and domains pages use (functions/api/dashboard-emails, dashboard-domains).
 * Its handler composes exactly this (shared/services/).
 */
import type { CoreServices, MessagingServices, SecretServices } from '../../../shared/services';

export type DashboardServices = CoreServices & MessagingServices & SecretServices;
