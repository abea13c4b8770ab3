import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildMailDomains } from '#shared/services/mail-domains';
import { buildValidation } from '#shared/services/address-validation';
import { createSuppressionsApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(
  createSuppressionsApp({
    ...platform,
    ...access,
    ...buildTenants(platform),
    ...buildSuppressions(platform),
    ...buildMailDomains(platform),
    ...buildValidation(),
  }),
);
