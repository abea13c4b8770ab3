import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildSendingStack } from '#shared/services/sending';
import { buildMailDomains } from '#shared/services/mail-domains';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';
import { buildSchedules } from '#shared/services/schedules';
import { createEmailsApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
export const handler = handle(
  createEmailsApp({
    ...platform,
    ...buildSendingStack(platform),
    ...buildMailDomains(platform),
    ...buildMessaging(platform),
    ...buildBlobs(platform.config),
    ...buildSchedules(platform.config),
  }),
);
