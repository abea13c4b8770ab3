/** What the domains group uses (its handler composes exactly this: shared/services/). */
import type {
  AccessServices,
  DomainServices,
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

export type DomainsServices = Platform &
  AccessServices &
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
