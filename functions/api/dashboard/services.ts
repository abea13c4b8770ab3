/**
 * What the dashboard group uses: the use cases of the groups it mirrors (emails, domains, keys, webhooks,
 * tenants, templates, automations, received email, imports' reports), hence the table, the queues, the mail
 * bucket, SES, the schedules (the send core's type: the test send never schedules), the secrets key and DNS
 * apply; not inbound parsing or the provider APIs.
 * Its handler composes exactly this (shared/services/).
 */
import type { BlobServices, CoreServices, DnsApplyServices, MessagingServices, ScheduleServices, SecretServices, SesServices, TenantCleanupServices } from '../../../shared/services';

export type DashboardServices = CoreServices & MessagingServices & BlobServices & SesServices & TenantCleanupServices & ScheduleServices & SecretServices & DnsApplyServices;
