/** GET /v3/scopes: the key's scopes (the seed's, or every read scope an import needs). */
import { json, type Reply } from '../../types';
import type { SendgridSeed } from '../seed';

const DEFAULT_SCOPES = [
  'asm.groups.read',
  'asm.groups.suppressions.read',
  'suppression.read',
  'suppression.bounces.read',
  'suppression.blocks.read',
  'suppression.invalid_emails.read',
  'suppression.spam_reports.read',
  'suppression.unsubscribes.read',
  'templates.read',
  'templates.versions.read',
  'whitelabel.read',
  'user.webhooks.event.settings.read',
];

export const getScopes = (_request: unknown, data: SendgridSeed): Reply => json(200, { scopes: data.scopes ?? DEFAULT_SCOPES });
