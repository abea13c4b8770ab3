import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTeam } from '#shared/services/team';
import { buildUsage } from '#shared/services/usage';
import { buildTenants } from '#shared/services/tenants';
import { buildTemplates } from '#shared/services/templates';
import { buildAutomations } from '#shared/services/automations';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildEmails } from '#shared/services/emails';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildImports } from '#shared/services/imports';
import { buildMessaging } from '#shared/services/messaging';
import { buildSecrets } from '#shared/services/secrets';
import { buildOidc } from '#shared/services/oidc';
import { createDashboardApp } from './app';

// The composition root: only the capabilities the function uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
const secrets = buildSecrets(platform);
export const handler = handle(
  createDashboardApp({
    ...platform,
    ...access,
    ...buildTeam(platform),
    ...buildTenants(platform),
    ...buildUsage(platform),
    ...buildTemplates(platform),
    ...buildAutomations(platform),
    ...buildSuppressions(platform),
    ...buildEmails(platform),
    ...buildWebhooks(platform),
    ...buildImports(platform),
    ...buildMessaging(platform),
    ...secrets,
    ...buildOidc(platform.config, secrets),
  }),
);
