/**
 * GET /v3/user/webhooks/event/settings/all: the event webhooks, `account_status_change` only with
 * ?include=account_status_change; 404 for an account on the legacy single-webhook API.
 */
import { json, type EmulatedRequest, type Reply } from '../../types';
import { notFound } from '../errors';
import type { SendgridSeed } from '../seed';

export function listEventWebhooks(request: EmulatedRequest, data: SendgridSeed): Reply {
  if (data.webhook_api === 'legacy') return notFound();
  const include = (request.query.get('include') ?? '').split(',').includes('account_status_change');
  const webhooks = (data.webhooks ?? []).map((w) => {
    const { account_status_change, ...rest } = w;
    return include ? { ...rest, account_status_change: account_status_change ?? false } : rest;
  });
  return json(200, { max_allowed: 5, webhooks });
}
