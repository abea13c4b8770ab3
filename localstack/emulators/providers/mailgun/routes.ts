/**
 * The fake Mailgun's table: its GET routes as path patterns, each answered by a module of ./operations/
 * (captures URL-decoded, ../route-match.ts), tried in order. Anything else is 404 `{"message":"Not Found"}`.
 */
import { get } from '../route-match';
import type { Route } from '../types';
import * as op from './operations';
import type { MailgunSeed } from './seed';

export const MAILGUN_ROUTES: readonly Route<MailgunSeed>[] = [
  get(/^\/v4\/domains$/, op.listDomains),
  get(/^\/v4\/domains\/([^/]+)$/, op.getDomain),
  get(/^\/v3\/domains\/([^/]+)\/webhooks$/, op.getDomainWebhooks),
  get(/^\/v1\/webhooks$/, op.listAccountWebhooks),
  get(/^\/v3\/([^/]+)\/(bounces|complaints|unsubscribes|whitelists)$/, op.listSuppressions),
  get(/^\/v3\/([^/]+)\/templates$/, op.listTemplates),
  get(/^\/v3\/([^/]+)\/templates\/([^/]+)$/, op.getTemplate),
];
