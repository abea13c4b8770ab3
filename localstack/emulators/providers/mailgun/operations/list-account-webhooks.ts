/** GET /v1/webhooks: the account's webhooks, only those of ?webhook_ids= (comma-separated) when given. */
import { json, type EmulatedRequest, type Reply } from '../../types';
import type { MailgunSeed } from '../seed';

export function listAccountWebhooks(request: EmulatedRequest, data: MailgunSeed): Reply {
  const ids = request.query.get('webhook_ids')?.split(',').filter(Boolean);
  return json(200, { webhooks: (data.account_webhooks ?? []).filter((w) => !ids || ids.includes(w.webhook_id)) });
}
