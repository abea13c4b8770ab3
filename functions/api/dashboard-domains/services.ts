/**
 * What the dashboard-domains function uses: the domain pages (add, verify, apply DNS), as the domains
 * group: the table, the secrets key (DKIM keys, stored DNS host credentials), SES (identities and the
 * tenant association of a verified domain), the DNS hosts, and the webhook events queue (domain.health_changed
 * from "Check now"). Its handler composes exactly this.
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
  MessagingServices,
  SecretServices,
  SesServices,
} from '#shared/services';

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
  Pick<MessagingServices, 'events'>;
