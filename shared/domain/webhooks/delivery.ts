/** A webhook delivery: one event to one endpoint, with every attempt logged. */
import * as z from 'zod';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
/**
 * pending: queued or between retries; succeeded: an attempt got a 2xx; failed: the last retry failed;
 * cancelled: the endpoint was deleted or disabled before it succeeded.
 */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const deliveryAttemptSchema = z.object({
  /** 1 for the first try. */
  attempt: z.number(),
  at: z.string(),
  status_code: z.number().nullable(),
  duration_ms: z.number(),
  /** Connection error, timeout or refusal (e.g. SSRF guard), when there was no HTTP answer. */
  error: z.string().nullable(),
  /** The first 500 characters of the response body. */
  response_excerpt: z.string().nullable(),
});
export type DeliveryAttempt = z.output<typeof deliveryAttemptSchema>;

/**
 * The schema of the stored delivery (the store decodes with it: shared/adapters/store/webhook-deliveries.ts),
 * the single source of the type. Items written before their first attempt may lack `attempts` and
 * `next_attempt_at`: read as none and null.
 */
export const webhookDeliverySchema = z.object({
  /** `whd_<event ulid>`: unique per (endpoint, event); time-sortable. */
  id: z.string(),
  webhook_id: z.string(),
  account_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  /** The exact JSON body sent (signed as is on every attempt). */
  payload: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(deliveryAttemptSchema).default(() => []),
  next_attempt_at: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  /** Internal: attempts made before the latest replay (retries are counted from there). */
  retry_base: z.number().optional(),
});
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;

/** The exact body sent, as JSON (it is always a JSON object we wrote; a string if it somehow is not). */
function parsedPayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

/** The API's view of a delivery (GET /webhooks/{id}/deliveries[/{delivery_id}]; the dashboard's delivery page shows its payload). */
export function toPublicDelivery(delivery: WebhookDelivery) {
  return {
    object: 'webhook_delivery' as const,
    id: delivery.id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.next_attempt_at,
    payload: parsedPayload(delivery.payload),
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}

/** How long delivery logs are kept. */
export const DELIVERY_RETENTION_DAYS = 30;

/** The delivery of an event to an endpoint: `whd_<ulid>` for the event `evt_<ulid>` (unique per endpoint). */
export function deliveryIdFor(eventId: string): string {
  const match = /^evt_([0-9A-HJKMNP-TV-Z]{26})$/.exec(eventId);
  if (!match) throw new Error(`Not an event id: ${eventId}`);
  return `whd_${match[1]}`;
}

/** The event ULID inside a delivery id (`whd_<ulid>`), or null when it is not a delivery id. */
export function eventUlidOf(deliveryId: string): string | null {
  const match = /^whd_([0-9A-HJKMNP-TV-Z]{26})$/.exec(deliveryId);
  return match ? match[1]! : null;
}
