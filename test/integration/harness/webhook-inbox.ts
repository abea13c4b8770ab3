/** A webhook endpoint of an account on the stack's local HTTPS inbox, and what it received. */
import { randomUUID } from 'node:crypto';
import { api, stack, waitFor, type TestAccount } from './stack';

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
  return async () =>
    (await inboxRequests(path))
      .map((request) => ({ id: request.headers['webhook-id']!, ...(JSON.parse(request.body) as Omit<ReceivedWebhook, 'id'>) }))
      .reverse();
}

/**
 * The webhooks of two emails (a provider-compatible door's send and an API send of the same content), once
 * each has `count` of them (email.sent and email.delivered: 2), each list sorted by type and shaped by `shape`:
 * what a door's test compares.
 */
export async function webhooksOfBoth<T>(
  received: () => Promise<ReceivedWebhook[]>,
  ids: [string, string],
  shape: (event: ReceivedWebhook) => T,
  count = 2,
): Promise<[T[], T[]]> {
  const lists = await waitFor(
    async () => {
      const all = await received();
      const both = ids.map((id) => all.filter((event) => event.data.email_id === id));
      if (both.some((list) => list.length < count)) throw new Error(`events so far: ${both.map((list) => list.length).join(' and ')}`);
      return both;
    },
    `${count} webhook events for each of ${ids.join(' and ')}`,
  );
  const byType = (list: ReceivedWebhook[]) => [...list].sort((a, b) => a.type.localeCompare(b.type)).map(shape);
  return [byType(lists[0]!), byType(lists[1]!)];
}
