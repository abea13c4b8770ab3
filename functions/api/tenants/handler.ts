import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildSes } from '#shared/services/ses';
import { buildTenantCleanup } from '#shared/services/tenant-cleanup';
import { createTenantsApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const ses = buildSes(config);
export const handler = handle(createTenantsApp({ ...core, ...ses, ...buildTenantCleanup({ ...core, ...ses }) }));
