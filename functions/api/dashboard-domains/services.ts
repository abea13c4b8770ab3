/**
 * What the dashboard-domains function uses: the domain pages (add, verify, apply DNS), as the domains
 * group: the table, the secrets key (DKIM keys, stored DNS host credentials), SES (identities and the
 * tenant association of a verified domain), the DNS hosts, the webhook events queue (domain.health_changed
 * from "Check now"), and the webhook endpoints (inbound routes name them: checked when set). Its handler
 * composes exactly this.
 */
import type {
  AccessServices,
  DomainServices,
  TeamServices,
  TenantServices,
  Platform,
  DeliverabilityServices,
  DnsApplyServices,
  MtaStsHostingServices,
  LinkDomainServices,
  MessagingServices,
  SecretServices,
  SesServices,
} from '#shared/services';
import type { WebhookServices } from '#shared/services/webhooks';

export type DashboardDomainsServices = Platform &
  AccessServices &
  TeamServices &
  TenantServices &
  DomainServices &
  SesServices &
  SecretServices &
  DnsApplyServices &
  DeliverabilityServices &
  MtaStsHostingServices &
  LinkDomainServices &
  Pick<MessagingServices, 'events'> &
  Pick<WebhookServices, 'webhooks'>;
