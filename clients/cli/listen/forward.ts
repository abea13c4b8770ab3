/**
 * One forward of `mailservice listen`: a delivery read from a pull endpoint's feed, POSTed to the local URL
 * with the headers a push delivery carries (signed with the endpoint's secret: shared/domain/webhooks/signing.ts),
 * and what the URL answered, as the API's result report takes it (POST .../deliveries/{id}/result).
 */
import { signatureHeaders } from '#shared/domain/webhooks/signing';

/** A delivery as the feed lists it (GET /webhooks/{id}/feed). */
export interface FeedDelivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: unknown[];
  payload: unknown;
  created_at: string;
}

/** What the local URL answered: the body of the result report. */
export interface ForwardResult {
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

/** As a push delivery's: 10 s for the local URL to answer. */
export const FORWARD_TIMEOUT_MS = 10_000;

/** The first 500 characters of an answer, as the delivery log keeps them. */
const EXCERPT_CHARS = 500;

/** A delivery seen in the feed more than once (the index is eventually consistent) is forwarded once per replay: its id and attempt count. */
export const forwardKey = (delivery: Pick<FeedDelivery, 'id' | 'attempts'>) => `${delivery.id}:${delivery.attempts.length}`;

export async function forwardDelivery(
  delivery: FeedDelivery,
  options: { url: string; secret: string; fetch: typeof fetch; now?: () => number },
): Promise<ForwardResult> {
  const now = options.now ?? Date.now;
  const body = JSON.stringify(delivery.payload);
  const started = now();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'mailservice-listen',
    ...signatureHeaders({ secrets: [options.secret], webhookId: delivery.event_id, timestamp: Math.floor(started / 1000), body }),
  };
  try {
    const response = await options.fetch(options.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    const text = await response.text().catch(() => '');
    return {
      status_code: response.status,
      duration_ms: Math.max(0, now() - started),
      error: null,
      response_excerpt: text ? text.slice(0, EXCERPT_CHARS) : null,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer in ${FORWARD_TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return {
      status_code: null,
      duration_ms: Math.max(0, now() - started),
      error: String(reason).slice(0, EXCERPT_CHARS),
      response_excerpt: null,
    };
  }
}
