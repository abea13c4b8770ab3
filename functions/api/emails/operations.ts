/** The operations of the emails group (Emails). */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { updateEmailSchema } from '#shared/domain/emails/update-request';
import { tenantParam } from '#shared/domain/tenants/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import { testEventSchema } from '#shared/usecases/webhooks/test-event';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { batchRequestSchema } from '#shared/doors/openapi/requests';
import { listOf } from '#shared/doors/openapi/common-schemas';
import {
  batchResultSchema,
  cancelResultSchema,
  emailEnvelopeSchema,
  emailSchema,
  sendResultSchema,
  testEventResultSchema,
} from './schemas';
import { page } from '#shared/doors/openapi/page-description';

const SEND_REFUSALS = [
  'insufficient_scope',
  'domain_not_verified',
  'domain_not_allowed',
  'recipient_not_allowed',
  'forbidden',
  'tenants_not_enabled',
  'account_paused',
] as const;

export const emailOps = section('emails', 'Emails', {
  sendEmail: {
    method: 'post',
    path: '/emails',
    summary: 'Send an email',
    description:
      'Accepts one email from a verified domain of the account (or the sandbox sender) and queues it, or stores it for `scheduled_at`. Checked in order: the sender, the recipients, suppressions, then plan limits. With `template` the subject and body come from a published template. Aliases are accepted for several fields (listed in the schema).',
    auth: 'apiKey',
    scopes: ['emails:send'],
    scopesCheckedBy: 'the send core, once it has read the key (a bad request from a key without the scope is answered 403 before 400)',
    requestHeaders: ['idempotencyKey'],
    body: {
      schema: sendRequestSchema,
      decodedBy: 'its handler: a bad request from a bad caller is answered 401 or 403 before 400',
      example: ex.exampleSendRequest,
    },
    responses: {
      200: {
        description: 'Accepted (`sent`) or stored for later (`scheduled`).',
        schema: sendResultSchema,
        example: { id: ex.id('msg'), status: 'sent' },
      },
    },
    errors: {
      403: [...SEND_REFUSALS],
      404: ['not_found'],
      409: ['idempotency_conflict'],
      413: ['payload_too_large'],
      422: ['validation_error'],
      429: ['plan_limit', 'daily_ramp_limit'],
      502: ['upstream_error'],
      503: ['service_unavailable'],
    },
  },
  sendBatch: {
    method: 'post',
    path: '/emails/batch',
    summary: 'Send up to 100 emails',
    description:
      'Each item goes through the same rules as POST /emails (attachments are refused per item). `x-batch-validation: permissive` (default) sends the valid items and reports the others in their `error`; `strict` refuses the whole batch with 400 when any item is invalid. With an Idempotency-Key the whole batch replays.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    requestHeaders: ['idempotencyKey', 'batchValidation'],
    body: {
      schema: batchRequestSchema,
      decodedBy: 'validateBatchShape (shared/usecases/send/send-batch.ts): {emails: [...]} or a bare array',
      example: { emails: [ex.exampleSendRequest, { ...ex.exampleSendRequest, to: 'grace@example.com', attachments: undefined }] },
    },
    responses: {
      200: {
        description: 'One result per item, index-aligned.',
        schema: batchResultSchema,
        example: {
          data: [
            { index: 0, id: ex.id('msg'), status: 'sent' },
            {
              index: 1,
              id: null,
              status: 'failed',
              error: {
                message: 'The domain acme.org is not verified for this account.',
                code: 'domain_not_verified',
                details: { domain: 'acme.org' },
              },
            },
          ],
        },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['idempotency_conflict'], 503: ['service_unavailable'] },
  },
  sendTestEvent: {
    method: 'post',
    path: '/emails/test',
    summary: 'Build (and deliver) a test webhook event',
    description:
      'Builds the webhook payload of any event type (from a real email with `email_id`, else an example), returns it, and unless `deliver` is false queues it to the subscribed endpoints. No email is sent.',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    body: { schema: testEventSchema, example: { event: 'email.delivered', email_id: ex.id('msg') } },
    responses: {
      200: {
        description: 'The payload, as endpoints receive it.',
        schema: testEventResultSchema,
        example: {
          object: 'test_event',
          id: ex.id('evt'),
          queued: true,
          payload: {
            type: 'email.delivered',
            created_at: '2026-11-23T09:30:02.412Z',
            data: { email_id: ex.id('msg'), status: 'delivered' },
          },
        },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'], 503: ['service_unavailable'] },
  },
  updateEmail: {
    method: 'patch',
    path: '/emails/{id}',
    summary: 'Reschedule or cancel a scheduled email',
    description:
      '`{"scheduled_at": "<ISO 8601>"}` reschedules, `{"cancel": true}` cancels: exactly one. Only while the email is `scheduled` (409 otherwise).',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the email id (msg_...)' },
    body: { schema: updateEmailSchema, example: { scheduled_at: '2026-11-24T08:00:00.000Z' } },
    responses: {
      200: {
        description: 'The email after the change.',
        schema: emailEnvelopeSchema,
        example: {
          email: {
            ...ex.exampleEmail,
            status: 'scheduled',
            last_event: 'scheduled',
            scheduled_at: '2026-11-24T08:00:00.000Z',
            sent_at: null,
            message_id: null,
            delivered_at: null,
          },
        },
      },
    },
    errors: { 409: ['conflict'], 503: ['service_unavailable'] },
  },
  cancelEmail: {
    method: 'post',
    path: '/emails/{id}/cancel',
    summary: 'Cancel a scheduled email',
    description: 'The resend SDK\'s emails.cancel: the same as PATCH /emails/{id} with `{"cancel": true}`.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the email id (msg_...)' },
    responses: { 200: { description: 'The cancelled email.', schema: cancelResultSchema } },
    errors: { 409: ['conflict'], 503: ['service_unavailable'] },
  },
  getEmail: {
    method: 'get',
    path: '/emails/{id}',
    summary: 'Retrieve an email',
    auth: 'apiKey',
    scopes: ['emails:send', 'account:read'],
    pathParams: { id: 'the email id (msg_...)' },
    responses: { 200: { description: 'The email record.', schema: emailEnvelopeSchema, example: { email: ex.exampleEmail } } },
  },
  listEmails: {
    method: 'get',
    path: '/emails',
    summary: 'List emails',
    description: `${page("The account's emails")} With \`tenant\`, only that tenant's. Eventually consistent. Rate-limited per account (10 requests per second).`,
    auth: 'apiKey',
    scopes: ['emails:send', 'account:read'],
    query: pageQuerySchema.extend({ tenant: tenantParam.optional() }),
    rateLimit: 'listEmails',
    responses: {
      200: {
        description: 'A page of email records.',
        schema: listOf('emails', emailSchema),
        example: { emails: [ex.exampleEmail], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  resendEmail: {
    method: 'post',
    path: '/emails/{id}/resend',
    summary: 'Send a stored email again',
    description:
      'A new send of the stored email (same from, recipients, subject, bodies, tags and headers; no attachments), through the same checks as POST /emails as of now. Answers like POST /emails with the new id.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the email id (msg_...)' },
    responses: { 200: { description: 'The new email.', schema: sendResultSchema, example: { id: ex.id('msg', true), status: 'sent' } } },
    errors: {
      403: [...SEND_REFUSALS],
      422: ['validation_error'],
      429: ['plan_limit', 'daily_ramp_limit'],
      502: ['upstream_error'],
      503: ['service_unavailable'],
    },
  },
});
