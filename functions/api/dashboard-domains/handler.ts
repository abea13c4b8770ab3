import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildTeam } from '#shared/services/team';
import { composeDomainsGroup } from '../domains/compose';
import { createDashboardDomainsApp } from './app';

// The composition root: the domains group's capabilities (functions/api/domains/compose.ts) and the dashboard's team.
const platform = buildPlatform();
export const handler = handle(createDashboardDomainsApp({ ...composeDomainsGroup(platform), ...buildTeam(platform) }));
