import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildValidation } from '#shared/services/address-validation';
import { createDashboardValidationsApp } from './app';

// The composition root: only what the function uses (shared/services/), built once per cold start.
const config = loadConfig();
export const handler = handle(createDashboardValidationsApp({ ...buildCore(config), ...buildValidation() }));
