import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTeam } from '#shared/services/team';
import { buildTenants } from '#shared/services/tenants';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildMailDomains } from '#shared/services/mail-domains';
import { buildValidation } from '#shared/services/address-validation';
import { createDashboardValidationsApp } from './app';

// The composition root: only the capabilities the function uses (shared/services/), built once per cold start.
const platform = buildPlatform();
export const handler = handle(
  createDashboardValidationsApp({
    ...platform,
    ...buildAccess(platform),
    ...buildTeam(platform),
    ...buildTenants(platform),
    ...buildSuppressions(platform),
    ...buildMailDomains(platform),
    ...buildValidation(),
  }),
);
