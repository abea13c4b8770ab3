import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTeam } from '#shared/services/team';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildEmails } from '#shared/services/emails';
import { buildInbound } from '#shared/services/inbound';
import { buildBlobs } from '#shared/services/blobs';
import { createDashboardEmailsApp } from './app';

// The composition root: only the capabilities the function uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(
  createDashboardEmailsApp({
    ...platform,
    ...access,
    ...buildTeam(platform),
    ...buildTenants(platform),
    ...buildEmails(platform),
    ...buildInbound(platform, buildDomains(platform)),
    ...buildBlobs(platform.config),
  }),
);
