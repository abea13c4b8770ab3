/**
 * The domains group's composition (shared/services/): the capabilities its routes use. The dashboard's
 * domain pages (functions/api/dashboard-domains/handler.ts) compose the same, plus the dashboard's team.
 */
import type { Platform } from '#shared/services';
import { buildAccess } from '#shared/services/access';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildDnsApply } from '#shared/services/dns-apply';
import { buildDomains } from '#shared/services/domains';
import { buildQueues } from '#shared/services/messaging';
import { buildMtaStsHosting } from '#shared/services/mta-sts-hosting';
import { buildLinkDomains } from '#shared/services/link-domains';
import { buildSecrets } from '#shared/services/secrets';
import { buildSes } from '#shared/services/ses';
import { buildTenants } from '#shared/services/tenants';
import { buildWebhooks } from '#shared/services/webhooks';
import type { DomainsServices } from './services';

export function composeDomainsGroup(platform: Platform): DomainsServices {
  return {
    ...platform,
    ...buildAccess(platform),
    ...buildTenants(platform),
    ...buildDomains(platform),
    ...buildSes(platform.config),
    ...buildSecrets(platform),
    ...buildDnsApply(platform.config),
    // domain.health_changed from "Check now".
    ...buildQueues(platform, ['events']),
    ...buildDeliverability(platform),
    ...buildMtaStsHosting(platform),
    ...buildLinkDomains(platform),
    // Inbound routes name webhook endpoints (checked when set).
    webhooks: buildWebhooks(platform).webhooks,
  };
}
