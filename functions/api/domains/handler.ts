import { handle } from 'hono/aws-lambda';
import { loadConfig } from '#shared/config/config';
import { buildCore } from '#shared/services/core';
import { buildSes } from '#shared/services/ses';
import { buildSecrets } from '#shared/services/secrets';
import { buildDnsApply } from '#shared/services/dns-apply';
import { buildMessaging } from '#shared/services/messaging';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMtaStsHosting } from '#shared/services/mta-sts';
import { createDomainsApp } from './app';

// The composition root: only what the group uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
export const handler = handle(
  createDomainsApp({
    ...core,
    ...buildSes(config),
    ...buildSecrets(config, core),
    ...buildDnsApply(config),
    events: buildMessaging(config).events,
    ...buildDeliverability(core),
    ...buildMtaStsHosting(core),
  }),
);
