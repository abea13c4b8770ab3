/** What the domains group uses (its handler composes exactly this: shared/services/). */
import type {
  CoreServices,
  DeliverabilityServices,
  DnsApplyServices,
  MtaStsHostingServices,
  MessagingServices,
  SecretServices,
  SesServices,
} from '#shared/services';

export type DomainsServices = CoreServices &
  SesServices &
  SecretServices &
  DnsApplyServices &
  DeliverabilityServices &
  MtaStsHostingServices &
  Pick<MessagingServices, 'events'>;
