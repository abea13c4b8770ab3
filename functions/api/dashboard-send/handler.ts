import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildSendingStack } from '#shared/services/sending';
import { buildTeam } from '#shared/services/team';
import { buildMailDomains } from '#shared/services/mail-domains';
import { buildBlobs } from '#shared/services/blobs';
import { ImmediateSendsOnly } from '#shared/adapters/scheduling/immediate-only';
import { createDashboardSendApp } from './app';

// The composition root: only the capabilities the function uses (shared/services/), built once per cold start.
const platform = buildPlatform();
export const handler = handle(
  createDashboardSendApp({
    ...platform,
    ...buildSendingStack(platform),
    ...buildTeam(platform),
    ...buildMailDomains(platform),
    ...buildBlobs(platform.config),
    scheduler: new ImmediateSendsOnly('dashboard-send'),
  }),
);
