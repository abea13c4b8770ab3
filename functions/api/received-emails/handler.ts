import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildInbound } from '#shared/services/inbound';
import { buildBlobs } from '#shared/services/blobs';
import { createReceivedEmailsApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(
  createReceivedEmailsApp({
    ...platform,
    ...access,
    ...buildTenants(platform),
    ...buildInbound(platform, buildDomains(platform)),
    ...buildBlobs(platform.config),
  }),
);
