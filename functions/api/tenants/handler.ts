import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildUsage } from '#shared/services/usage';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildLinkDomains } from '#shared/services/link-domains';
import { buildEmails } from '#shared/services/emails';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildSes } from '#shared/services/ses';
import { buildTenantCleanup } from '#shared/services/tenant-cleanup';
import { createTenantsApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
// What a tenant's deletion undoes reaches its keys, domains, suppressions, webhooks and scheduled emails.
const owned = {
  ...access,
  ...buildTenants(platform),
  ...buildUsage(platform),
  ...buildDomains(platform),
  ...buildLinkDomains(platform),
  ...buildEmails(platform),
  ...buildSuppressions(platform),
  ...buildWebhooks(platform),
};
const ses = buildSes(platform.config);
export const handler = handle(
  createTenantsApp({ ...platform, ...owned, ...ses, ...buildTenantCleanup({ ...platform, ...owned, ...ses }) }),
);
