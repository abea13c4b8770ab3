import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildMessaging } from '#shared/services/messaging';
import { buildOidc } from '#shared/services/oidc';
import { buildSecrets } from '#shared/services/secrets';
import { createDashboardApp } from './app';

// The composition root: only what the function uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const secrets = buildSecrets(config, core);
export const handler = handle(createDashboardApp({ ...core, ...buildMessaging(config), ...secrets, ...buildOidc(config, secrets) }));
