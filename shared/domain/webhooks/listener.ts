/**
 * Pull endpoints (`delivery: "pull"`): a listener such as `mailservice listen` reads the endpoint's events
 * feed (GET /webhooks/{id}/feed) and forwards each delivery to a local URL itself, signed with the
 * endpoint's secret, then reports what that URL answered (POST .../deliveries/{id}/result). The service
 * never requests a pull endpoint's `url` (docs/webhooks.md, "Receiving events on your laptop").
 *
 * A listener that stopped (its terminal closed, the process killed) must not make the account pay for
 * deliveries nobody reads: the router skips a pull endpoint whose feed was not read for LISTENER_IDLE_MS.
 * Reads record their time at most once every PULL_MARK_EVERY_MS, so a listener polling every second
 * writes the endpoint once a minute, not once a second.
 */
import * as z from 'zod';
import type { WebhookEndpoint } from './endpoint';

/** A pull endpoint not read for this long receives no new deliveries (until its feed is read again). */
export const LISTENER_IDLE_MS = 10 * 60_000;

/** How often a feed read records itself on the endpoint (`last_pulled_at`), at most. */
export const PULL_MARK_EVERY_MS = 60_000;

/** Whether the router creates a delivery for this endpoint now: a push endpoint always; a pull one while its listener reads. */
export function takesDeliveries(endpoint: Pick<WebhookEndpoint, 'delivery' | 'last_pulled_at' | 'created_at'>, now: Date): boolean {
  if (endpoint.delivery !== 'pull') return true;
  // A new endpoint counts as read at its creation: the listener that made it reads it a moment later.
  const lastRead = Date.parse(endpoint.last_pulled_at ?? endpoint.created_at);
  return now.getTime() - lastRead < LISTENER_IDLE_MS;
}

/** Whether a feed read now should record itself on the endpoint (the last record is a minute old, or there is none). */
export function pullMarkDue(endpoint: Pick<WebhookEndpoint, 'last_pulled_at'>, now: Date): boolean {
  return endpoint.last_pulled_at === null || now.getTime() - Date.parse(endpoint.last_pulled_at) >= PULL_MARK_EVERY_MS;
}

/** What a listener reports after forwarding a delivery: the local URL's answer, or why there was none. */
export const listenerResultSchema = z
  .object({
    status_code: z
      .number({ message: 'status_code must be an HTTP status (100-599) or null' })
      .int('status_code must be an integer')
      .min(100, 'status_code must be 100-599')
      .max(599, 'status_code must be 100-599')
      .nullable()
      .describe("the local URL's HTTP status; null when it gave none (see error)"),
    duration_ms: z
      .number({ message: 'duration_ms must be a number' })
      .min(0, 'duration_ms must be 0 or more')
      .max(3_600_000, 'duration_ms is at most 3600000')
      .default(0)
      .describe('how long the forward took, in milliseconds'),
    error: z
      .string({ message: 'error must be a string or null' })
      .max(500, 'error is at most 500 characters')
      .nullable()
      .default(null)
      .describe('connection error or timeout, when there was no HTTP answer'),
    response_excerpt: z
      .string({ message: 'response_excerpt must be a string or null' })
      .max(500, 'response_excerpt is at most 500 characters')
      .nullable()
      .default(null)
      .describe("the first 500 characters of the local URL's answer"),
  })
  .strict()
  .refine((value) => value.status_code !== null || value.error !== null, {
    message: 'give status_code, or error when the local URL gave no HTTP answer',
    path: ['status_code'],
  });
export type ListenerResult = z.output<typeof listenerResultSchema>;

/** A reported forward succeeded when the local URL answered 2xx, as a push delivery does. */
export const listenerSucceeded = (result: Pick<ListenerResult, 'status_code'>) =>
  result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
