/** A webhook endpoint of an account on the stack's local HTTPS inbox, and what it received. */
import { randomUUID } from 'node:crypto';
import { api, stack, type TestAccount } from './stack';

export interface ReceivedWebhook {
  type: string;
  created_at: string;
  data: Record<string, any>;
}

/** Creates an endpoint subscribed to `events` on a path of its own; answers a reader of what reached it, oldest first. */
export async function webhookInbox(account: TestAccount, events: string[]): Promise<() => Promise<ReceivedWebhook[]>> {
  const path = `hooks-${randomUUID().slice(0, 8)}`;
  const created = await api('POST', '/webhooks', { key: account.key, body: { url: `${stack().info.webhook_inbox_url}${path}`, events } });
  expect(created.status).toBe(200);
  return async () =>
    ((await api('GET', `/_local/webhooks?path=${encodeURIComponent(`/${path}`)}`)).body.requests as { body: string }[])
      .map((request) => JSON.parse(request.body) as ReceivedWebhook)
      .reverse();
}
