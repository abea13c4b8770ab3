import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildValidation } from '#shared/services/address-validation';
import { createSuppressionsApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(createSuppressionsApp({ ...core, ...buildValidation() }));
