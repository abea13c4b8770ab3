/**
 * The fake SendGrid's table: its Web API v3 GET routes as path patterns, each answered by a module of
 * ./operations/ (captures URL-decoded, ../route-match.ts). Anything else is 404 "resource not found".
 */
import { get } from '../route-match';
import type { Route } from '../types';
import * as op from './operations';
import type { SendgridSeed } from './seed';

export const SENDGRID_ROUTES: readonly Route<SendgridSeed>[] = [
  get(/^\/v3\/scopes$/, op.getScopes),
  get(/^\/v3\/suppression\/(bounces|blocks|spam_reports|invalid_emails|unsubscribes)$/, op.listSuppressions),
  get(/^\/v3\/asm\/groups$/, op.listAsmGroups),
  get(/^\/v3\/asm\/groups\/([^/]+)$/, op.getAsmGroup),
  get(/^\/v3\/asm\/groups\/([^/]+)\/suppressions$/, op.listAsmGroupSuppressions),
  get(/^\/v3\/templates$/, op.listTemplates),
  get(/^\/v3\/templates\/([^/]+)$/, op.getTemplate),
  get(/^\/v3\/whitelabel\/domains$/, op.listAuthenticatedDomains),
  get(/^\/v3\/whitelabel\/domains\/(\d+)$/, op.getAuthenticatedDomain),
  get(/^\/v3\/user\/webhooks\/event\/settings\/all$/, op.listEventWebhooks),
  get(/^\/v3\/user\/webhooks\/event\/settings$/, op.getLegacyEventWebhook),
];
