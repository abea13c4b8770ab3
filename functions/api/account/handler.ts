import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildBlobs } from '#shared/services/blobs';
import { buildCore } from '#shared/services/core';
import { buildAccountStats } from '#shared/services/deliverability';
import { createAccountApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(createAccountApp({ ...core, ...buildBlobs(config), ...buildAccountStats(core) }));
