import { handle } from 'hono/aws-lambda';
import { buildPlatform } from '#shared/services/platform';
import { createDomainsApp } from './app';
import { composeDomainsGroup } from './compose';

// The composition root: only the capabilities the group uses (./compose.ts), built once per cold start.
export const handler = handle(createDomainsApp(composeDomainsGroup(buildPlatform())));
