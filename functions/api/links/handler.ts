import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildMessaging } from '#shared/services/messaging';
import { buildSecrets } from '#shared/services/secrets';
import { createLinksApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(createLinksApp({ ...core, ...buildMessaging(config), ...buildSecrets(config, core) }));
