import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildBlobs } from '#shared/services/blobs';
import { buildCore } from '#shared/services/core';
import { buildMessaging } from '#shared/services/messaging';
import { buildSchedules } from '#shared/services/schedules';
import { createDashboardSendApp } from './app';

// The composition root: only what the function uses (shared/services/), built once per cold start.
const config = loadConfig();
export const handler = handle(
  createDashboardSendApp({ ...buildCore(config), ...buildMessaging(config), ...buildBlobs(config), ...buildSchedules(config) }),
);
