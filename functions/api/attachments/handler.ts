import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildEmails } from '#shared/services/emails';
import { buildBlobs } from '#shared/services/blobs';
import { createAttachmentsApp } from './app';

// The composition root: only the capabilities the group uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
export const handler = handle(createAttachmentsApp({ ...platform, ...access, ...buildEmails(platform), ...buildBlobs(platform.config) }));
