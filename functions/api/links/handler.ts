import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildEmails } from '#shared/services/emails';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildMessaging } from '#shared/services/messaging';
import { buildSecrets } from '#shared/services/secrets';
import { createLinksApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(
  createLinksApp({
    ...platform,
    ...access,
    ...buildTenants(platform),
    ...buildEmails(platform),
    ...buildSuppressions(platform),
    ...buildMessaging(platform),
    ...buildSecrets(platform),
  }),
);
