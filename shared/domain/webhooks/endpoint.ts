/** A webhook endpoint: where an account's events are POSTed, which ones, and for which tenants. */
import * as z from 'zod';
import { EVENT_TYPES } from './event-types';

/** How an endpoint receives its events: POSTed by the service (push) or read from its feed by a listener (pull). */
export const WEBHOOK_DELIVERY_MODES = ['push', 'pull'] as const;
export type WebhookDeliveryMode = (typeof WEBHOOK_DELIVERY_MODES)[number];

/**
 * The schema of the stored endpoint without its sealed secret (the store decodes with it:
 * shared/adapters/store/webhooks.ts), the single source of the type.
 */
export const webhookEndpointSchema = z.object({
  /** `wh_<ulid>`. */
  id: z.string(),
  account_id: z.string(),
  /**
   * push: HTTPS URL (checked against the SSRF policy when set). pull: where the listener forwards (http or
   * https, shown only: the service never requests it).
   */
  url: z.string(),
  /**
   * push (absent on the item): every event is POSTed to `url` by the delivery worker. pull: a listener
   * (`mailservice listen`) reads the endpoint's events feed and forwards them itself (./listener.ts).
   */
  delivery: z.enum(WEBHOOK_DELIVERY_MODES).default('push'),
  /** A pull endpoint: when its feed was last read (at most once a minute recorded); null when never (absent on the item). */
  last_pulled_at: z.string().nullable().default(null),
  /** Subscribed event types; every supported type when the request named none. */
  events: z.array(z.enum(EVENT_TYPES)),
  /** Disabled endpoints receive nothing; their pending retries are cancelled by the delivery worker. */
  enabled: z.boolean(),
  /** Tenants the endpoint is filtered to; null when it receives the whole account's events (absent on the item). */
  tenants: z.array(z.string()).nullable().default(null),
  /** When the signing secret was last rotated (./secret-rotation.ts); null when never (absent on the item). */
  secret_rotated_at: z.string().nullable().default(null),
  /** Until when the secret before the last rotation also signs every delivery; null when none does (absent on the item). */
  previous_secret_expires_at: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

/** Endpoints per account (an atomic counter in the create transaction enforces it). */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

/** Binds a sealed signing secret to its endpoint: a secret copied to another record does not open. */
export const webhookSecretContext = (webhookId: string) => ({ purpose: 'webhook', webhook_id: webhookId });

/**
 * An endpoint after a tenant's deletion: the tenant leaves its filter; an endpoint that listened only
 * to that tenant keeps no filter and is disabled (not deleted: its log and secret stay; re-enabling it
 * makes it receive the whole account's events unless a filter is set again). Null: not concerned.
 */
export function withoutTenant(
  endpoint: Pick<WebhookEndpoint, 'tenants' | 'enabled'>,
  externalId: string,
): { tenants: string[] | null; enabled: boolean } | null {
  if (!endpoint.tenants?.includes(externalId)) return null;
  const rest = endpoint.tenants.filter((name) => name !== externalId);
  return rest.length > 0 ? { tenants: rest, enabled: endpoint.enabled } : { tenants: null, enabled: false };
}

/** The API's view: never the secret; `tenants` only when the endpoint is filtered to tenants. */
export function toPublicWebhook(endpoint: WebhookEndpoint) {
  return {
    object: 'webhook' as const,
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    delivery: endpoint.delivery,
    ...(endpoint.delivery === 'pull' ? { last_pulled_at: endpoint.last_pulled_at } : {}),
    ...(endpoint.tenants?.length ? { tenants: endpoint.tenants } : {}),
    secret_rotated_at: endpoint.secret_rotated_at,
    previous_secret_expires_at: endpoint.previous_secret_expires_at,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}
