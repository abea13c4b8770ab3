/** A webhook delivery: one event to one endpoint, with every attempt logged. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
/**
 * pending: queued or between retries; succeeded: an attempt got a 2xx; failed: the last retry failed;
 * cancelled: the endpoint was deleted or disabled before it succeeded.
 */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryAttempt {
  /** 1 for the first try. */
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  /** Connection error, timeout or refusal (e.g. SSRF guard), when there was no HTTP answer. */
  error: string | null;
  /** The first 500 characters of the response body. */
  response_excerpt: string | null;
}

export interface WebhookDelivery {
  /** `whd_<event ulid>`: unique per (endpoint, event); time-sortable. */
  id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body sent (signed as is on every attempt). */
  payload: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /** Internal: attempts made before the latest replay (retries are counted from there). */
  retry_base?: number;
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
