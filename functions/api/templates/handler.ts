import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildTemplates } from '#shared/services/templates';
import { createTemplatesApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(createTemplatesApp({ ...platform, ...access, ...buildTenants(platform), ...buildTemplates(platform) }));
