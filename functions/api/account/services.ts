/** What the account group uses (its handler composes exactly this: shared/services/). */
import type {
  AccessServices,
  AutomationServices,
  BlobServices,
  DomainServices,
  EmailServices,
  InboundServices,
  Platform,
  PrivacyServices,
  SuppressionServices,
  TemplateServices,
  TenantServices,
  WebhookServices,
} from '#shared/services';
import type { AccountStatsServices } from '#shared/services/deliverability';

export type AccountServices = Platform &
  AccessServices &
  BlobServices &
  AccountStatsServices &
  PrivacyServices &
  TenantServices &
  DomainServices &
  TemplateServices &
  EmailServices &
  WebhookServices &
  SuppressionServices &
  AutomationServices &
  InboundServices;
