import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildTemplates } from '#shared/services/templates';
import { buildEmails } from '#shared/services/emails';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildAutomations } from '#shared/services/automations';
import { buildInbound } from '#shared/services/inbound';
import { buildPrivacy } from '#shared/services/privacy';
import { buildAccountStats } from '#shared/services/deliverability';
import { buildBlobs } from '#shared/services/blobs';
import { createAccountApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
const domains = buildDomains(platform);
// Exports read every kind of record the account keeps; erasures find a person in every record that can name one.
export const handler = handle(
  createAccountApp({
    ...platform,
    ...access,
    ...buildTenants(platform),
    ...domains,
    ...buildTemplates(platform),
    ...buildEmails(platform),
    ...buildWebhooks(platform),
    ...buildSuppressions(platform),
    ...buildAutomations(platform),
    ...buildInbound(platform, domains),
    ...buildPrivacy(platform),
    ...buildAccountStats(platform),
    ...buildBlobs(platform.config),
  }),
);
