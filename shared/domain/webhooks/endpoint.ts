/** A webhook endpoint: where an account's events are POSTed, which ones, and for which tenants. */
import type { EventType } from './event-types';

export interface WebhookEndpoint {
  /** `wh_<ulid>`. */
  id: string;
  account_id: string;
  /** HTTPS URL (checked against the SSRF policy when set). */
  url: string;
  /** Subscribed event types; every supported type when the request named none. */
  events: EventType[];
  /** Disabled endpoints receive nothing; their pending retries are cancelled by the delivery worker. */
  enabled: boolean;
  /** Tenants the endpoint is filtered to; null when it receives the whole account's events. */
  tenants: string[] | null;
  created_at: string;
  updated_at: string;
}

/** Endpoints per account (an atomic counter in the create transaction enforces it). */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

/** Binds a sealed signing secret to its endpoint: a secret copied to another record does not open. */
export const webhookSecretContext = (webhookId: string) => ({ purpose: 'webhook', webhook_id: webhookId });

/** The API's view: never the secret; `tenants` only when the endpoint is filtered to tenants. */
export function toPublicWebhook(endpoint: WebhookEndpoint) {
  return {
    object: 'webhook' as const,
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    ...(endpoint.tenants && endpoint.tenants.length ? { tenants: endpoint.tenants } : {}),
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}
