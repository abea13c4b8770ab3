import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';
import { buildSchedules } from '#shared/services/schedules';
import { createEmailsApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(createEmailsApp({ ...core, ...buildMessaging(config), ...buildBlobs(config), ...buildSchedules(config) }));
