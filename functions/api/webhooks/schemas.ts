/** Response schemas of the webhooks group: endpoints and their deliveries. */
import * as z from 'zod';
import type { toPublicDelivery } from '#shared/domain/webhooks/delivery';
import { DELIVERY_STATUSES } from '#shared/domain/webhooks/delivery';
import { WEBHOOK_DELIVERY_MODES, type toPublicWebhook } from '#shared/domain/webhooks/endpoint';
import { EVENT_TYPES } from '#shared/domain/webhooks/event-types';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';

export const webhookSchema = describing<ReturnType<typeof toPublicWebhook>>()(
  z.strictObject({
    object: z.literal('webhook').describe('always `webhook`'),
    id: idOf('wh').describe("the endpoint's id (wh_...)"),
    url: z.string().describe('the HTTPS URL events are POSTed to (normalised)'),
    events: z.array(z.enum(EVENT_TYPES)).describe('the subscribed event types'),
    enabled: z.boolean().describe('false: the endpoint receives nothing and its pending retries are cancelled'),
    delivery: z
      .enum(WEBHOOK_DELIVERY_MODES)
      .describe('push: the service POSTs each event to url; pull: a listener reads them from GET /webhooks/{id}/feed and forwards them'),
    last_pulled_at: nullableTimestamp
      .optional()
      .describe(
        'a pull endpoint only: when its feed was last read (recorded at most once a minute; ISO 8601), null when never. Not read for 10 minutes: it receives no new deliveries until it is read again',
      ),
    tenants: z
      .array(z.string())
      .optional()
      .describe("only present when the endpoint is filtered to tenants (external_ids): it then gets only those tenants' email events"),
    secret_rotated_at: nullableTimestamp.describe('when the signing secret was last rotated (ISO 8601); null when never'),
    previous_secret_expires_at: nullableTimestamp.describe(
      'until when the secret before the last rotation also signs every delivery (ISO 8601); null when none does. A time in the past: it has stopped',
    ),
    created_at: timestamp.describe('when the endpoint was added (ISO 8601)'),
    updated_at: timestamp.describe('when the endpoint last changed (ISO 8601)'),
  }),
);

/** An answer that shows a signing secret, the one time it is shown (a create, a rotation). */
const withSecret = (webhook: string, secret: string) =>
  z.strictObject({
    webhook: webhookSchema.describe(webhook),
    secret: z
      .string()
      .regex(/^whsec_/)
      .describe(secret),
  });

export const webhookCreatedSchema = withSecret('the endpoint', 'the signing secret: shown only here');

export const webhookRotatedSchema = withSecret(
  'the endpoint, with secret_rotated_at and previous_secret_expires_at',
  'the new signing secret: shown only here',
);

export const webhookEnvelopeSchema = z.strictObject({ webhook: webhookSchema.describe('the endpoint') });

export const deliverySchema = describing<ReturnType<typeof toPublicDelivery>>()(
  z.strictObject({
    object: z.literal('webhook_delivery').describe('always `webhook_delivery`'),
    id: idOf('whd').describe("the delivery's id (whd_...): one per endpoint and event"),
    webhook_id: idOf('wh').describe('the endpoint (wh_...)'),
    event_id: idOf('evt').describe('the event (evt_...): the webhook-id header, the same on every retry and replay'),
    event_type: z.string().describe('the event type, e.g. email.delivered'),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe(
        'pending (queued or waiting for a retry), succeeded (a 2xx), failed (the last retry failed) or cancelled (endpoint disabled or deleted)',
      ),
    attempts: z
      .array(
        z.strictObject({
          attempt: z.number().int().describe('1 for the first try'),
          at: timestamp.describe('when the attempt was made (ISO 8601)'),
          status_code: z.number().int().nullable().describe("the endpoint's HTTP status; null without an HTTP answer"),
          duration_ms: z.number().describe('how long the attempt took, in milliseconds (the timeout is 10 s)'),
          error: z.string().nullable().describe('connection error, timeout or refusal, when there was no HTTP answer'),
          response_excerpt: z.string().nullable().describe('the first 500 characters of the response body'),
        }),
      )
      .describe('every attempt so far, oldest first'),
    next_attempt_at: nullableTimestamp.describe(
      'when the next attempt is due while pending (ISO 8601); null once succeeded, failed or cancelled',
    ),
    payload: z.unknown().describe('the exact JSON body sent'),
    created_at: timestamp.describe('when the delivery was created (ISO 8601)'),
    updated_at: timestamp.describe('when it last changed (ISO 8601)'),
  }),
);

export const deliveryEnvelopeSchema = z.strictObject({ delivery: deliverySchema.describe('the delivery with its attempts') });
