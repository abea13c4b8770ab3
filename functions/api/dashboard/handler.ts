import { handle } from 'hono/aws-lambda';
import { loadConfig } from '../../../shared/config';
import { buildCore } from '../../../shared/services/core';
import { buildMessaging } from '../../../shared/services/messaging';
import { buildBlobs } from '../../../shared/services/blobs';
import { buildSes } from '../../../shared/services/ses';
import { buildTenantCleanup } from '../../../shared/services/tenant-cleanup';
import { buildSchedules } from '../../../shared/services/schedules';
import { buildSecrets } from '../../../shared/services/secrets';
import { buildDnsApply } from '../../../shared/services/dns-apply';
import { createDashboardApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const ses = buildSes(config);
export const handler = handle(createDashboardApp({ ...core, ...buildMessaging(config), ...buildBlobs(config), ...ses, ...buildTenantCleanup({ ...core, ...ses }), ...buildSchedules(config), ...buildSecrets(config, core), ...buildDnsApply(config) }));
