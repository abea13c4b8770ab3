import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildMessaging } from '#shared/services/messaging';
import { buildSecrets } from '#shared/services/secrets';
import { createWebhooksApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(
  createWebhooksApp({
    ...platform,
    ...access,
    ...buildTenants(platform),
    ...buildWebhooks(platform),
    ...buildMessaging(platform),
    ...buildSecrets(platform),
  }),
);
