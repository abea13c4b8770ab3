/**
 * The fake Postmark's table: its GET routes as path patterns, each answered by a module of ./operations/
 * (captures URL-decoded, ../route-match.ts). Anything else is the plain-text 404 `Not Found`.
 */
import { get } from '../route-match';
import type { Route } from '../types';
import * as op from './operations';
import type { PostmarkSeed } from './seed';

export const POSTMARK_ROUTES: readonly Route<PostmarkSeed>[] = [
  get(/^\/server$/, op.getServer),
  get(/^\/message-streams$/, op.listMessageStreams),
  get(/^\/message-streams\/([^/]+)$/, op.getMessageStream),
  get(/^\/message-streams\/([^/]+)\/suppressions\/dump$/, op.dumpSuppressions),
  get(/^\/templates$/, op.listTemplates),
  get(/^\/templates\/([^/]+)$/, op.getTemplate),
  get(/^\/webhooks$/, op.listWebhooks),
  get(/^\/domains$/, op.listDomains),
  get(/^\/domains\/(\d+)$/, op.getDomain),
];
