/** The operations of the webhooks group (Webhooks). */
import { createWebhookSchema, updateWebhookSchema } from '#shared/domain/webhooks/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { listOf, okSchema } from '#shared/doors/openapi/common-schemas';
import {
  deliveryEnvelopeSchema,
  deliverySchema,
  webhookCreatedSchema,
  webhookEnvelopeSchema,
  webhookRotatedSchema,
  webhookSchema,
} from './schemas';
import { rotateWebhookSecretSchema } from '#shared/domain/webhooks/secret-rotation';
import { listenerResultSchema } from '#shared/domain/webhooks/listener';
import { page } from '#shared/doors/openapi/page-description';

// ---------------------------------------------------------------------------------------------------
// Webhooks (also the dashboard's /api/webhooks)

const webhookRead = ['webhooks:write', 'account:read'] as const;

export const webhookOps = section('webhooks', 'Webhooks', {
  createWebhook: {
    method: 'post',
    creates: { param: 'id', at: 'webhook.id' },
    path: '/webhooks',
    summary: 'Add a webhook endpoint',
    description:
      "The signing secret (`whsec_`) is returned only here. Events default to every supported type; `tenants` filters to those tenants' email events.",
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    body: { schema: createWebhookSchema, example: { url: 'https://acme.com/webhooks/mail', events: ['email.delivered', 'email.bounced'] } },
    responses: {
      200: {
        description: 'The endpoint and its signing secret.',
        schema: webhookCreatedSchema,
        example: { webhook: ex.exampleWebhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'limit_exceeded'], 404: ['not_found'], 503: ['service_unavailable'] },
  },
  listWebhooks: {
    method: 'get',
    path: '/webhooks',
    summary: 'List webhook endpoints',
    description: page('The endpoints'),
    auth: 'apiKey',
    scopes: [...webhookRead],
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'A page of endpoints.',
        schema: listOf('webhooks', webhookSchema),
        example: { webhooks: [ex.exampleWebhook], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  getWebhook: {
    method: 'get',
    path: '/webhooks/{id}',
    summary: 'Retrieve a webhook endpoint',
    auth: 'apiKey',
    scopes: [...webhookRead],
    pathParams: { id: 'the endpoint id (wh_...)' },
    responses: { 200: { description: 'The endpoint.', schema: webhookEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
  updateWebhook: {
    method: 'patch',
    path: '/webhooks/{id}',
    summary: 'Change a webhook endpoint',
    description:
      'Any of url, events, enabled, tenants (`[]` or null removes the filter). Answers the endpoint itself (not wrapped), as the spec says.',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)' },
    body: { schema: updateWebhookSchema, example: { enabled: false } },
    responses: {
      200: { description: 'The endpoint after the change.', schema: webhookSchema, example: { ...ex.exampleWebhook, enabled: false } },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  deleteWebhook: {
    method: 'delete',
    path: '/webhooks/{id}',
    summary: 'Delete a webhook endpoint',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)' },
    responses: { 200: { description: 'Deleted; pending retries are cancelled.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  rotateWebhookSecret: {
    method: 'post',
    path: '/webhooks/{id}/secret',
    summary: "Rotate an endpoint's signing secret",
    description:
      'A new signing secret (`whsec_`), returned only here. For `overlap_seconds` (default a day, at most 7 days; 0: at once) every delivery is signed with both the new and the previous secret: two `v1=` values in `Service-Signature` (the new first) and two signatures in `webhook-signature`, so a receiver holding either verifies it and can switch whenever it deploys. `previous_secret_expires_at` says until when. Two rotations at the same moment: one answers 409 (retry it).',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)' },
    body: { schema: rotateWebhookSecretSchema, optional: true, example: { overlap_seconds: 86_400 } },
    responses: {
      200: {
        description: 'The endpoint and its new signing secret.',
        schema: webhookRotatedSchema,
        example: {
          webhook: { ...ex.exampleWebhook, secret_rotated_at: ex.LATER, previous_secret_expires_at: ex.DAY_AFTER, updated_at: ex.LATER },
          secret: 'whsec_Xq3Z0k1f4m9yJw2Nn7bR8tVcPp5sLhGdA6eU0iOoK1E=',
        },
      },
    },
    errors: { 403: ['forbidden'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  expirePreviousWebhookSecret: {
    method: 'delete',
    path: '/webhooks/{id}/secret/previous',
    summary: 'Stop the previous signing secret now',
    description:
      "After a rotation, the previous secret stops signing at once (every receiver has switched, or it leaked): deliveries carry the current secret's signature only. Answers the endpoint; nothing to stop is not an error.",
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)' },
    responses: {
      200: {
        description: 'The endpoint, its previous secret no longer signing.',
        schema: webhookEnvelopeSchema,
        example: { webhook: { ...ex.exampleWebhook, secret_rotated_at: ex.LATER, updated_at: ex.LATER } },
      },
    },
    errors: { 403: ['forbidden'], 503: ['service_unavailable'] },
  },
  listWebhookDeliveries: {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    summary: "An endpoint's delivery log",
    description: page('Deliveries (kept 30 days), each with every attempt'),
    auth: 'apiKey',
    scopes: [...webhookRead],
    pathParams: { id: 'the endpoint id (wh_...)' },
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'A page of deliveries.',
        schema: listOf('deliveries', deliverySchema),
        example: { deliveries: [ex.exampleDelivery], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  getWebhookDelivery: {
    method: 'get',
    path: '/webhooks/{id}/deliveries/{deliveryId}',
    summary: 'Retrieve a delivery',
    auth: 'apiKey',
    scopes: [...webhookRead],
    pathParams: { id: 'the endpoint id (wh_...)', deliveryId: 'the delivery id (whd_...)' },
    responses: {
      200: {
        description: 'The delivery with its payload and attempts.',
        schema: deliveryEnvelopeSchema,
        example: { delivery: ex.exampleDelivery },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  replayWebhookDelivery: {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{deliveryId}/replay',
    summary: 'Replay a failed or cancelled delivery',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)', deliveryId: 'the delivery id (whd_...)' },
    responses: { 202: { description: 'Queued again.', schema: deliveryEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  readWebhookFeed: {
    method: 'get',
    path: '/webhooks/{id}/feed',
    summary: "A pull endpoint's events feed",
    description: page(
      'The deliveries of a pull endpoint (`delivery: "pull"`) waiting for its listener, oldest first, each with the exact body a push delivery would POST (`payload`; sign it with the endpoint\'s secret as docs/webhooks.md shows). A delivery leaves the feed when its result is reported (POST .../deliveries/{deliveryId}/result); a replay puts it back at the end. The index is eventually consistent: a delivery reported a moment ago may show once more. Reading records the endpoint\'s `last_pulled_at` (at most once a minute); an endpoint not read for 10 minutes receives no new deliveries until it is read again. A push endpoint answers 409',
    ),
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the pull endpoint id (wh_...)' },
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'A page of the deliveries waiting, oldest first.',
        schema: listOf('deliveries', deliverySchema),
        example: {
          deliveries: [{ ...ex.exampleDelivery, status: 'pending', attempts: [], next_attempt_at: null }],
          has_more: false,
          next_cursor: null,
        },
      },
    },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  reportWebhookDeliveryResult: {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{deliveryId}/result',
    summary: "Report a pull endpoint's forward",
    description:
      "What the listener's local URL answered for a delivery it read from the feed: logged as the delivery's attempt (succeeded on a 2xx, failed otherwise; the listener does not retry) and the delivery leaves the feed. Once per delivery: a second report answers 409 (replay it to see it again). A push endpoint answers 409.",
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the pull endpoint id (wh_...)', deliveryId: 'the delivery id (whd_...)' },
    body: { schema: listenerResultSchema, example: { status_code: 200, duration_ms: 12, response_excerpt: 'ok' } },
    responses: { 200: { description: 'The delivery with the reported attempt.', schema: deliveryEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
});
