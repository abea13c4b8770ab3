import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildDnsApply } from '#shared/services/dns-apply';
import { buildMessaging } from '#shared/services/messaging';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMtaStsHosting } from '#shared/services/mta-sts';
import { buildSecrets } from '#shared/services/secrets';
import { buildSes } from '#shared/services/ses';
import { createDashboardDomainsApp } from './app';

// The composition root: only what the function uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(
  createDashboardDomainsApp({
    ...core,
    ...buildSes(config),
    ...buildSecrets(config, core),
    ...buildDnsApply(config),
    events: buildMessaging(config).events,
    ...buildDeliverability(core),
    ...buildMtaStsHosting(core),
  }),
);
