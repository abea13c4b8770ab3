import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildTemplates } from '#shared/services/templates';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildImports } from '#shared/services/imports';
import { buildImportProviders } from '#shared/services/import-providers';
import { buildSecrets } from '#shared/services/secrets';
import { createMigrationsApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
export const handler = handle(
  createMigrationsApp({
    ...platform,
    ...buildAccess(platform),
    ...buildTenants(platform),
    ...buildDomains(platform),
    ...buildTemplates(platform),
    ...buildWebhooks(platform),
    ...buildSuppressions(platform),
    ...buildImports(platform),
    ...buildImportProviders(),
    ...buildSecrets(platform),
  }),
);
