/** A webhook endpoint of an account on the stack's local HTTPS inbox, and what it received. */
import { randomUUID } from 'node:crypto';
import { api, stack, type TestAccount } from './stack';

export interface ReceivedWebhook {
  /** The event id (the webhook-id header): the same on a retried delivery of the same event. */
  id: string;
  type: string;
  created_at: string;
  data: Record<string, any>;
}

/** A request the local webhook inbox received (GET /_local/webhooks). */
export interface InboxRequest {
  path: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * What reached one path of the local webhook inbox (`hooks-1`, without the leading slash), newest first:
 * filtered by the inbox (`?path=`), so files running in parallel never read each other's requests.
 */
export async function inboxRequests(path: string): Promise<InboxRequest[]> {
  return (await api('GET', `/_local/webhooks?path=${encodeURIComponent(`/${path}`)}`)).body.requests as InboxRequest[];
}

/** Creates an endpoint subscribed to `events` on a path of its own; answers a reader of what reached it, oldest first. */
export async function webhookInbox(account: TestAccount, events: string[]): Promise<() => Promise<ReceivedWebhook[]>> {
  const path = `hooks-${randomUUID().slice(0, 8)}`;
  const created = await api('POST', '/webhooks', { key: account.key, body: { url: `${stack().info.webhook_inbox_url}${path}`, events } });
  expect(created.status).toBe(200);
  return async () => (await inboxRequests(path)).map((request) => ({ id: request.headers['webhook-id']!, ...(JSON.parse(request.body) as Omit<ReceivedWebhook, 'id'>) })).reverse();
}
