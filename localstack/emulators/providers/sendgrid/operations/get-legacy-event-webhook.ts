/** GET /v3/user/webhooks/event/settings: the legacy single-webhook settings. */
import { json, type Reply } from '../../types';
import type { SendgridEventWebhook, SendgridSeed } from '../seed';

const LEGACY_WEBHOOK_FIELDS = [
  'enabled',
  'url',
  'group_resubscribe',
  'delivered',
  'group_unsubscribe',
  'spam_report',
  'bounce',
  'deferred',
  'unsubscribe',
  'processed',
  'open',
  'click',
  'dropped',
  'oauth_client_id',
  'oauth_token_url',
] as const;

export const getLegacyEventWebhook = (_request: unknown, data: SendgridSeed): Reply => json(200, legacyWebhook(data.webhooks ?? []));

/** The oldest webhook (created_date null first), legacy fields only. */
function legacyWebhook(webhooks: readonly SendgridEventWebhook[]): Record<string, unknown> {
  const oldest = webhooks.find((w) => w.created_date === null) ?? webhooks[0];
  const out: Record<string, unknown> = {};
  for (const field of LEGACY_WEBHOOK_FIELDS) {
    const value = oldest?.[field];
    if (value !== undefined) out[field] = value;
    else if (field !== 'oauth_client_id' && field !== 'oauth_token_url') out[field] = field === 'url' ? '' : false;
  }
  return out;
}
