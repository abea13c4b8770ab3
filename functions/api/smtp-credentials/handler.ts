import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { createSmtpCredentialsApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(createSmtpCredentialsApp(core));
