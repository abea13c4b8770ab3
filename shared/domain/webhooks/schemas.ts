/** Request validation for /webhooks (the single source of the request types). */
import * as z from 'zod';
import { EVENT_TYPES, isEventType, type EventType } from './event-types';
import { WEBHOOK_DELIVERY_MODES } from './endpoint';
import { boundedRef, TENANT_REF_MAX_CHARS } from '../bounds';

/**
 * An http(s) URL, normalised (WHATWG URL `href`), so what is checked against the SSRF policy is exactly
 * what is later requested. Credentials are refused: the URL is shown in listings and is not a secret.
 * Only a pull endpoint's URL (where its listener forwards; never requested by the service) may be http:
 * `requireHttps` below, and the use case for a change of URL. Where the host points is checked by the use
 * case (it needs DNS).
 */
export const webhookUrl = z
  .string({ message: 'url is required (an HTTPS URL)' })
  .trim()
  .min(1, 'url is required (an HTTPS URL)')
  .max(2048, 'url is at most 2048 characters')
  .transform((value, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'url must be an absolute HTTPS URL, e.g. https://example.com/webhooks' });
      return z.NEVER;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      ctx.addIssue({ code: 'custom', message: `url must use HTTPS (got ${parsed.protocol.replace(/:$/, '')}://)` });
      return z.NEVER;
    }
    if (parsed.username !== '' || parsed.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'url must not contain credentials; verify deliveries with the signing secret instead' });
      return z.NEVER;
    }
    if (parsed.hostname === '') {
      ctx.addIssue({ code: 'custom', message: 'url must name a host' });
      return z.NEVER;
    }
    return parsed.href;
  });

/** The message of an http:// URL where HTTPS is needed (every push endpoint's). */
export const httpsNeeded = (url: string) => (url.startsWith('http:') ? 'url must use HTTPS (got http://)' : null);

const eventType = z.string({ message: 'event types are strings' }).transform((value, ctx) => {
  if (!isEventType(value)) {
    ctx.addIssue({ code: 'custom', message: `unknown event type "${value}"; valid event types: ${EVENT_TYPES.join(', ')}` });
    return z.NEVER;
  }
  return value as EventType;
});

/** Non-empty, known types, deduplicated (first occurrence order). */
const events = z
  .array(eventType, { message: 'events must be an array of event types' })
  .min(1, `events needs at least one event type (omit it to receive all: ${EVENT_TYPES.join(', ')})`)
  .max(100, 'events has at most 100 items')
  .transform((types) => [...new Set(types)]);

const tenantName = boundedRef('tenants', TENANT_REF_MAX_CHARS, 'tenant external_ids or ids');
/**
 * Each tenant of a filter is checked and written in the endpoint's one DynamoDB transaction (100 items:
 * the endpoint, its slot and the tenants; shared/adapters/store/webhooks.ts), so a tenant being deleted can never
 * stay in a filter.
 */
export const MAX_WEBHOOK_TENANTS = 98;
const tenants = z
  .array(tenantName, { message: 'tenants must be an array of tenant ids' })
  .max(MAX_WEBHOOK_TENANTS, `tenants has at most ${MAX_WEBHOOK_TENANTS} items`)
  .transform((names) => [...new Set(names)]);

const URL_DOC =
  'an absolute https:// URL (at most 2048 characters, no user:password@) resolving to public addresses only; a pull endpoint: where its listener forwards (http:// too, never requested by the service)';
const EVENTS_DOC = 'event types to receive (1-100, duplicates dropped)';
const TENANTS_DOC = `only these tenants' email events (external_ids or ids, up to ${MAX_WEBHOOK_TENANTS}; 1-128 characters each)`;

export const createWebhookSchema = z
  .object({
    url: webhookUrl.describe(URL_DOC),
    events: events.optional().describe(`${EVENTS_DOC}; default: every supported type`),
    /** Filters the endpoint to these tenants; an empty list means no filter. */
    tenants: tenants.optional().describe(`${TENANTS_DOC}; [] means no filter`),
    delivery: z
      .enum(WEBHOOK_DELIVERY_MODES, { message: 'delivery must be push or pull' })
      .optional()
      .describe(
        'push (default): the service POSTs each event to url. pull: a listener (`mailservice listen`) reads the events from GET /webhooks/{id}/feed and forwards them itself',
      ),
  })
  .superRefine((value, ctx) => {
    const refused = value.delivery === 'pull' ? null : httpsNeeded(value.url);
    if (refused) ctx.addIssue({ code: 'custom', message: refused, path: ['url'] });
  });
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const updateWebhookSchema = z
  .object({
    url: webhookUrl.optional().describe(`${URL_DOC}; checked again`),
    events: events.optional().describe(`${EVENTS_DOC}; replaces the list`),
    enabled: z
      .boolean({ message: 'enabled must be true or false' })
      .optional()
      .describe('false: the endpoint receives nothing and its pending retries are cancelled'),
    /** [] or null removes the tenant filter. */
    tenants: tenants.nullable().optional().describe(`${TENANTS_DOC}; [] or null removes the filter`),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one of url, events, enabled, tenants' });
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;
