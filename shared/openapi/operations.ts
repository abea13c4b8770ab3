/**
 * Every operation of the HTTP API, group by group (the groups of infra/definitions.ts API_GROUPS; each
 * operation names the group whose Hono app serves it). test/unit/openapi/routes.test.ts compares this
 * list with the routes of the apps both ways, and each operation's scopes with its route's requireScope.
 */
import * as z from 'zod';
import { createApiKeySchema } from '../domain/api-keys/schemas';
import { automationActionSchema, createAutomationSchema, listAutomationsQuerySchema, updateAutomationSchema } from '../domain/automations/schemas';
import { eventRequestSchema } from '../domain/automations/event-request';
import { listRunsQuerySchema } from '../domain/automations/run-view';
import { signInRequestSchema } from '../domain/dashboard/schemas';
import { assignTenantDomainSchema, createDomainSchema, listDomainsQuerySchema, updateDomainSchema } from '../domain/domains/schemas';
import { createAttachmentUploadSchema } from '../domain/emails/attachment-upload';
import { sendRequestSchema } from '../domain/emails/send-request';
import { updateEmailSchema } from '../domain/emails/update-request';
import { listReceivedEmailsQuerySchema } from '../domain/inbound/schemas';
import { listImportsQuerySchema, reportQuerySchema, startImportSchema } from '../domain/migrations/schemas';
import { createSmtpCredentialSchema } from '../domain/smtp-credentials/schemas';
import { addSuppressionsSchema, removeSuppressionSchema, suppressionFilterFields } from '../domain/suppressions/schemas';
import { tenantParam } from '../domain/tenants/schemas';
import { createTemplateSchema, listTemplatesQuerySchema, renderTemplateQuerySchema, renderTemplateSchema, updateTemplateSchema } from '../domain/templates/schemas';
import { createTenantSchema, listTenantsQuerySchema, tenantStatsQuerySchema, updateTenantSchema } from '../domain/tenants/schemas';
import { createWebhookSchema, updateWebhookSchema } from '../domain/webhooks/schemas';
import { pageQuerySchema } from '../http/pagination';
import { testEventSchema } from '../usecases/test-event';
import * as ex from './examples';
import { op, section, type Operation } from './operation';
import { batchRequestSchema, domainActionRequestSchema, storeDnsProviderRequestSchema } from './requests';
import { apiKeyCreatedSchema, apiKeySchema, dnsProviderEnvelopeSchema, dnsProviderListSchema, sessionSchema, smtpCredentialCreatedSchema, smtpCredentialSchema } from './schemas/account';
import {
  automationEnvelopeSchema,
  automationSchema,
  dryRunSchema,
  eventAcceptedSchema,
  migrationEnvelopeSchema,
  migrationReportSchema,
  migrationSummarySchema,
  runEnvelopeSchema,
  runSummarySchema,
} from './schemas/automations';
import { listOf, okSchema } from './schemas/common';
import { domainActionResultSchema, domainEnvelopeSchema, domainSchema, tenantDeletedSchema, tenantEnvelopeSchema, tenantSchema, tenantStatsSchema } from './schemas/domains';
import {
  attachmentCreatedSchema,
  attachmentEnvelopeSchema,
  batchResultSchema,
  cancelResultSchema,
  emailEnvelopeSchema,
  emailSchema,
  sendResultSchema,
  testEventResultSchema,
} from './schemas/emails';
import {
  deliveryEnvelopeSchema,
  deliverySchema,
  receivedEmailEnvelopeSchema,
  receivedEmailSummarySchema,
  suppressionListSchema,
  suppressionRemovedSchema,
  suppressionsAddedSchema,
  templateEnvelopeSchema,
  templatePreviewSchema,
  templateSummarySchema,
  webhookCreatedSchema,
  webhookEnvelopeSchema,
  webhookSchema,
} from './schemas/lists';

const SEND_REFUSALS = ['insufficient_scope', 'domain_not_verified', 'domain_not_allowed', 'recipient_not_allowed', 'forbidden', 'tenants_not_enabled'] as const;
const page = (name: string) => `${name}, newest first: \`?limit\` (1-100, default 25) and \`?cursor\` (the previous page's next_cursor).`;

// ---------------------------------------------------------------------------------------------------
// Emails

const emails: Operation[] = section('emails', 'Emails', [
  {
    method: 'post',
    path: '/emails',
    operationId: 'sendEmail',
    summary: 'Send an email',
    description:
      'Accepts one email from a verified domain of the account (or the sandbox sender) and queues it, or stores it for `scheduled_at`. Checked in order: the sender, the recipients, suppressions, then plan limits. With `template` the subject and body come from a published template. Aliases are accepted for several fields (listed in the schema).',
    auth: 'apiKey',
    scopes: ['emails:send'],
    scopesCheckedBy: 'the send core, once it has read the key (a bad request from a key without the scope is answered 403 before 400)',
    requestHeaders: ['idempotencyKey'],
    body: { schema: sendRequestSchema, example: ex.exampleSendRequest },
    responses: { 200: { description: 'Accepted (`sent`) or stored for later (`scheduled`).', schema: sendResultSchema, example: { id: ex.id('msg'), status: 'sent' } } },
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
  {
    method: 'post',
    path: '/emails/batch',
    operationId: 'sendBatch',
    summary: 'Send up to 100 emails',
    description:
      'Each item goes through the same rules as POST /emails (attachments are refused per item). `x-batch-validation: permissive` (default) sends the valid items and reports the others in their `error`; `strict` refuses the whole batch with 400 when any item is invalid. With an Idempotency-Key the whole batch replays.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    requestHeaders: ['idempotencyKey', 'batchValidation'],
    body: { schema: batchRequestSchema, example: { emails: [ex.exampleSendRequest, { ...ex.exampleSendRequest, to: 'grace@example.com', attachments: undefined }] } },
    responses: {
      200: {
        description: 'One result per item, index-aligned.',
        schema: batchResultSchema,
        example: {
          data: [
            { index: 0, id: ex.id('msg'), status: 'sent' },
            { index: 1, id: null, status: 'failed', error: { message: 'The domain acme.org is not verified for this account.', code: 'domain_not_verified', details: { domain: 'acme.org' } } },
          ],
        },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['idempotency_conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'post',
    path: '/emails/test',
    operationId: 'sendTestEvent',
    summary: 'Build (and deliver) a test webhook event',
    description: 'Builds the webhook payload of any event type (from a real email with `email_id`, else an example), returns it, and unless `deliver` is false queues it to the subscribed endpoints. No email is sent.',
    auth: 'apiKey',
    scopes: ['full'],
    body: { schema: testEventSchema, example: { event: 'email.delivered', email_id: ex.id('msg') } },
    responses: {
      200: {
        description: 'The payload, as endpoints receive it.',
        schema: testEventResultSchema,
        example: { object: 'test_event', id: ex.id('evt'), queued: true, payload: { type: 'email.delivered', created_at: '2026-11-23T09:30:02.412Z', data: { email_id: ex.id('msg'), status: 'delivered' } } },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'], 503: ['service_unavailable'] },
  },
  {
    method: 'patch',
    path: '/emails/{id}',
    operationId: 'updateEmail',
    summary: 'Reschedule or cancel a scheduled email',
    description: '`{"scheduled_at": "<ISO 8601>"}` reschedules, `{"cancel": true}` cancels: exactly one. Only while the email is `scheduled` (409 otherwise).',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the email id (msg_...)' },
    body: { schema: updateEmailSchema, example: { scheduled_at: '2026-11-24T08:00:00.000Z' } },
    responses: { 200: { description: 'The email after the change.', schema: emailEnvelopeSchema, example: { email: { ...ex.exampleEmail, status: 'scheduled', last_event: 'scheduled', scheduled_at: '2026-11-24T08:00:00.000Z', sent_at: null, message_id: null, delivered_at: null } } } },
    errors: { 409: ['conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'post',
    path: '/emails/{id}/cancel',
    operationId: 'cancelEmail',
    summary: 'Cancel a scheduled email',
    description: "The resend SDK's emails.cancel: the same as PATCH /emails/{id} with `{\"cancel\": true}`.",
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the email id (msg_...)' },
    responses: { 200: { description: 'The cancelled email.', schema: cancelResultSchema } },
    errors: { 409: ['conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/emails/{id}',
    operationId: 'getEmail',
    summary: 'Retrieve an email',
    auth: 'apiKey',
    scopes: ['emails:send', 'account:read'],
    pathParams: { id: 'the email id (msg_...)' },
    responses: { 200: { description: 'The email record.', schema: emailEnvelopeSchema, example: { email: ex.exampleEmail } } },
  },
  {
    method: 'get',
    path: '/emails',
    operationId: 'listEmails',
    summary: 'List emails',
    description: `${page("The account's emails")} With \`tenant\`, only that tenant's. Eventually consistent. Rate-limited per account (10 requests per second).`,
    auth: 'apiKey',
    scopes: ['emails:send', 'account:read'],
    query: pageQuerySchema.extend({ tenant: tenantParam.optional() }),
    rateLimited: true,
    responses: { 200: { description: 'A page of email records.', schema: listOf('emails', emailSchema), example: { emails: [ex.exampleEmail], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  {
    method: 'post',
    path: '/emails/{id}/resend',
    operationId: 'resendEmail',
    summary: 'Send a stored email again',
    description: 'A new send of the stored email (same from, recipients, subject, bodies, tags and headers; no attachments), through the same checks as POST /emails as of now. Answers like POST /emails with the new id.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the email id (msg_...)' },
    responses: { 200: { description: 'The new email.', schema: sendResultSchema, example: { id: ex.id('msg', true), status: 'sent' } } },
    errors: { 403: [...SEND_REFUSALS], 422: ['validation_error'], 429: ['plan_limit', 'daily_ramp_limit'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
]);

const attachments: Operation[] = section('attachments', 'Attachments', [
  {
    method: 'post',
    path: '/attachments',
    operationId: 'createAttachmentUpload',
    summary: 'Start an attachment upload',
    description: 'For files too large for a request (a request is at most 6 MB): returns an `att_` id and a presigned S3 PUT URL (15 minutes). PUT the bytes there, then reference `{"attachment_id": "att_..."}` in a send within 24 hours.',
    auth: 'apiKey',
    scopes: ['emails:send'],
    body: { schema: createAttachmentUploadSchema, example: { filename: 'report.pdf', content_type: 'application/pdf', size: 8_400_000 } },
    responses: { 201: { description: 'The upload and where to PUT the file.', schema: attachmentCreatedSchema } },
  },
  {
    method: 'get',
    path: '/attachments/{id}',
    operationId: 'getAttachmentUpload',
    summary: 'Retrieve an attachment upload',
    auth: 'apiKey',
    scopes: ['emails:send'],
    pathParams: { id: 'the upload id (att_...)' },
    responses: { 200: { description: 'Its status (pending_upload, uploaded, too_large) and size.', schema: attachmentEnvelopeSchema } },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Keys and credentials

const apiKeys: Operation[] = section('api-keys', 'API keys', [
  {
    method: 'post',
    path: '/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: 'The secret is returned only here; only its SHA-256 hash is stored. A key limited to a tenant cannot create keys.',
    auth: 'apiKey',
    scopes: ['full'],
    body: { schema: createApiKeySchema, example: { name: 'production sender', scopes: ['emails:send'], allowed_domains: ['acme.com'] } },
    responses: { 201: { description: 'The key and its secret.', schema: apiKeyCreatedSchema, example: { api_key: ex.exampleApiKey, secret: 'svc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/api-keys',
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description: page('The keys (never secrets)'),
    auth: 'apiKey',
    scopes: ['account:read'],
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of keys.', schema: listOf('api_keys', apiKeySchema), example: { api_keys: [ex.exampleApiKey], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'delete',
    path: '/api-keys/{id}',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'The key stops working on the next request.',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: { id: 'the key id (key_...)' },
    responses: { 200: { description: 'Revoked.', schema: okSchema, example: { ok: true } } },
    errors: { 403: ['forbidden'] },
  },
]);

const smtpCredentials: Operation[] = section('smtp-credentials', 'SMTP credentials', [
  {
    method: 'post',
    path: '/smtp-credentials',
    operationId: 'createSmtpCredential',
    summary: 'Create an SMTP credential',
    description: "The SMTP relay's password (the username is always the same literal), returned only here. It may only send; like a key it can be limited to a tenant and to sending domains.",
    auth: 'apiKey',
    scopes: ['full'],
    body: { schema: createSmtpCredentialSchema, example: { name: 'wordpress', allowed_domains: ['acme.com'] } },
    responses: { 201: { description: 'The credential and its password.', schema: smtpCredentialCreatedSchema, example: { smtp_credential: ex.exampleSmtpCredential, password: 'svcsmtp_AbCdEfGhIjKlMnOpQrStUvWxYz012345' } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/smtp-credentials',
    operationId: 'listSmtpCredentials',
    summary: 'List SMTP credentials',
    description: page('The credentials (never passwords)'),
    auth: 'apiKey',
    scopes: ['account:read'],
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of credentials.', schema: listOf('smtp_credentials', smtpCredentialSchema) } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'delete',
    path: '/smtp-credentials/{id}',
    operationId: 'revokeSmtpCredential',
    summary: 'Revoke an SMTP credential',
    description: "Revoked at once: the relay checks the credential again for every message.",
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: { id: 'the credential id (smtp_...)' },
    responses: { 200: { description: 'Revoked.', schema: okSchema } },
    errors: { 403: ['forbidden'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Tenants

const tenantParamDoc = { tenant: "the tenant's external_id or id (ten_...)" };
const tenants: Operation[] = section('tenants', 'Tenants', [
  {
    method: 'post',
    path: '/tenants',
    operationId: 'createTenant',
    summary: 'Create a tenant',
    auth: 'apiKey',
    scopes: ['full'],
    body: { schema: createTenantSchema, example: { external_id: 'customer-42', name: 'Customer 42', default_from_domain: 'customer42.com', metadata: { plan: 'gold' } } },
    responses: { 201: { description: 'The tenant.', schema: tenantEnvelopeSchema, example: { tenant: ex.exampleTenant } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'plan_limit'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/tenants',
    operationId: 'listTenants',
    summary: 'List tenants',
    description: page('The tenants'),
    auth: 'apiKey',
    scopes: ['full'],
    query: pageQuerySchema.extend(listTenantsQuerySchema.shape),
    responses: { 200: { description: 'A page of tenants.', schema: listOf('tenants', tenantSchema) } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  {
    method: 'get',
    path: '/tenants/{tenant}',
    operationId: 'getTenant',
    summary: 'Retrieve a tenant',
    description: 'A key limited to that tenant may call it.',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: tenantParamDoc,
    responses: { 200: { description: 'The tenant.', schema: tenantEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  {
    method: 'patch',
    path: '/tenants/{tenant}',
    operationId: 'updateTenant',
    summary: 'Change, pause or resume a tenant',
    description: '`{"status": "paused", "reason"?}` pauses (its new emails are refused with 403 forbidden), `{"status": "active"}` resumes (not a tenant the service paused), other fields change its settings.',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: tenantParamDoc,
    body: { schema: updateTenantSchema, example: { status: 'paused', reason: 'unpaid invoice' } },
    responses: { 200: { description: 'The tenant after the change.', schema: tenantEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 503: ['service_unavailable'] },
  },
  {
    method: 'delete',
    path: '/tenants/{tenant}',
    operationId: 'deleteTenant',
    summary: 'Delete a tenant',
    description: "Revokes its keys and credentials, returns its domains, removes its suppression list and stops endpoints that listened only to it; its emails stay in history with tenant null.",
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: tenantParamDoc,
    responses: { 200: { description: 'Deleted.', schema: tenantDeletedSchema, example: { id: ex.id('ten'), object: 'tenant', external_id: 'customer-42', deleted: true } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/tenants/{tenant}/stats',
    operationId: 'getTenantStats',
    summary: "A tenant's stats and sending ramp",
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: tenantParamDoc,
    query: tenantStatsQuerySchema,
    responses: { 200: { description: 'Counts over `days` UTC days and the ramp of today.', schema: tenantStatsSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  {
    method: 'post',
    path: '/tenants/{tenant}/domains',
    operationId: 'giveDomainToTenant',
    summary: 'Give an account domain to a tenant',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: tenantParamDoc,
    body: { schema: assignTenantDomainSchema, example: { domain: 'customer42.com' } },
    responses: { 200: { description: 'The domain, now owned by the tenant.', schema: domainEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['conflict'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/tenants/{tenant}/domains',
    operationId: 'listTenantDomains',
    summary: "List a tenant's domains",
    description: page("The tenant's domains"),
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: tenantParamDoc,
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of domains.', schema: listOf('domains', domainSchema) } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'] },
  },
  {
    method: 'delete',
    path: '/tenants/{tenant}/domains/{domain}',
    operationId: 'returnDomainToAccount',
    summary: 'Return a domain to the account',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: { ...tenantParamDoc, domain: 'the domain name or id (dom_...)' },
    responses: { 200: { description: 'The domain, account-wide again.', schema: domainEnvelopeSchema } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['conflict'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Domains

const domainRead = ['domains:write', 'account:read'] as const;
const domains: Operation[] = section('domains', 'Domains', [
  {
    method: 'post',
    path: '/domains',
    operationId: 'createDomain',
    summary: 'Add a sending domain',
    description: 'Returns the DNS records to publish (ownership, DKIM, return path, SPF, DMARC; with `inbound_enabled`, the MX of a receive-only subdomain). A domain claimed by another account is 409 with claim instructions.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    body: { schema: createDomainSchema, example: { name: 'acme.com' } },
    responses: { 201: { description: 'The domain and its records.', schema: domainEnvelopeSchema, example: { domain: ex.exampleDomain } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'plan_limit'], 404: ['not_found'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/domains',
    operationId: 'listDomains',
    summary: 'List domains',
    description: page('The domains') + ' With `tenant`, only that tenant\'s.',
    auth: 'apiKey',
    scopes: [...domainRead],
    query: pageQuerySchema.extend(listDomainsQuerySchema.shape),
    responses: { 200: { description: 'A page of domains.', schema: listOf('domains', domainSchema) } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/domains/{id}',
    operationId: 'getDomain',
    summary: 'Retrieve a domain',
    auth: 'apiKey',
    scopes: [...domainRead],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'The domain and its records as last checked.', schema: domainEnvelopeSchema } },
  },
  {
    method: 'patch',
    path: '/domains/{id}',
    operationId: 'updateDomain',
    summary: 'Change delivery settings and receiving',
    description:
      'Tracking, `tls_mode`, and `inbound_enabled`: `true` adds the receiving subdomain `inbound.<domain>` and its MX record (pending until a verify finds it), `false` removes both and stops receiving (docs/inbound.md).',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    body: { schema: updateDomainSchema, example: { open_tracking: true, click_tracking: true, tls_mode: 'enforced', inbound_enabled: true } },
    responses: { 200: { description: 'The domain after the change.', schema: domainEnvelopeSchema } },
    errors: { 409: ['conflict'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  {
    method: 'delete',
    path: '/domains/{id}',
    operationId: 'deleteDomain',
    summary: 'Delete a domain',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    responses: { 200: { description: 'Deleted (its SES identity too).', schema: okSchema } },
    errors: { 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  {
    method: 'post',
    path: '/domains/{id}',
    operationId: 'domainAction',
    summary: 'Verify a domain, or apply its DNS records',
    description:
      '`{"action": "verify"}` checks DNS (and that the service can sign with the domain\'s DKIM key). `{"action": "apply", "provider": "route53" | "cloudflare", "credentials"?}` writes the records at the DNS host first (credentials of this request, else stored ones, else the service role for Route 53), then verifies.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { id: 'the domain id (dom_...)' },
    body: { schema: domainActionRequestSchema, example: { action: 'verify' } },
    responses: { 200: { description: 'The domain after the check (and what apply wrote).', schema: domainActionResultSchema } },
    errors: { 409: ['conflict'], 422: ['validation_error'], 502: ['upstream_error'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/dns-providers',
    operationId: 'listDnsProviders',
    summary: 'List stored DNS host credentials',
    auth: 'apiKey',
    scopes: ['domains:write'],
    responses: { 200: { description: 'The stored credentials (never their secrets).', schema: dnsProviderListSchema } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'put',
    path: '/dns-providers/{provider}',
    operationId: 'storeDnsProvider',
    summary: 'Store DNS host credentials for apply',
    description: 'Sealed at rest and never returned.',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { provider: 'route53 or cloudflare' },
    body: { schema: storeDnsProviderRequestSchema, example: { credentials: { api_token: 'cf-token-xxxxxxxx' } } },
    responses: { 200: { description: 'Stored.', schema: dnsProviderEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'delete',
    path: '/dns-providers/{provider}',
    operationId: 'deleteDnsProvider',
    summary: 'Delete stored DNS host credentials',
    auth: 'apiKey',
    scopes: ['domains:write'],
    pathParams: { provider: 'route53 or cloudflare' },
    responses: { 200: { description: 'Deleted.', schema: okSchema } },
    errors: { 403: ['forbidden'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Webhooks (also the dashboard's /api/webhooks)

const webhookRead = ['webhooks:write', 'account:read'] as const;
const webhookOps: Operation[] = section('webhooks', 'Webhooks', [
  {
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    summary: 'Add a webhook endpoint',
    description: 'The signing secret (`whsec_`) is returned only here. Events default to every supported type; `tenants` filters to those tenants\' email events.',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    body: { schema: createWebhookSchema, example: { url: 'https://acme.com/webhooks/mail', events: ['email.delivered', 'email.bounced'] } },
    responses: { 200: { description: 'The endpoint and its signing secret.', schema: webhookCreatedSchema, example: { webhook: ex.exampleWebhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'limit_exceeded'], 404: ['not_found'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    description: page('The endpoints'),
    auth: 'apiKey',
    scopes: [...webhookRead],
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of endpoints.', schema: listOf('webhooks', webhookSchema), example: { webhooks: [ex.exampleWebhook], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/webhooks/{id}',
    operationId: 'getWebhook',
    summary: 'Retrieve a webhook endpoint',
    auth: 'apiKey',
    scopes: [...webhookRead],
    pathParams: { id: 'the endpoint id (wh_...)' },
    responses: { 200: { description: 'The endpoint.', schema: webhookEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'patch',
    path: '/webhooks/{id}',
    operationId: 'updateWebhook',
    summary: 'Change a webhook endpoint',
    description: 'Any of url, events, enabled, tenants (`[]` or null removes the filter). Answers the endpoint itself (not wrapped), as the spec says.',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)' },
    body: { schema: updateWebhookSchema, example: { enabled: false } },
    responses: { 200: { description: 'The endpoint after the change.', schema: webhookSchema, example: { ...ex.exampleWebhook, enabled: false } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'delete',
    path: '/webhooks/{id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)' },
    responses: { 200: { description: 'Deleted; pending retries are cancelled.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
  {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's delivery log",
    description: page('Deliveries (kept 30 days), each with every attempt'),
    auth: 'apiKey',
    scopes: [...webhookRead],
    pathParams: { id: 'the endpoint id (wh_...)' },
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of deliveries.', schema: listOf('deliveries', deliverySchema), example: { deliveries: [ex.exampleDelivery], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/webhooks/{id}/deliveries/{deliveryId}',
    operationId: 'getWebhookDelivery',
    summary: 'Retrieve a delivery',
    auth: 'apiKey',
    scopes: [...webhookRead],
    pathParams: { id: 'the endpoint id (wh_...)', deliveryId: 'the delivery id (whd_...)' },
    responses: { 200: { description: 'The delivery with its payload and attempts.', schema: deliveryEnvelopeSchema, example: { delivery: ex.exampleDelivery } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{deliveryId}/replay',
    operationId: 'replayWebhookDelivery',
    summary: 'Replay a failed or cancelled delivery',
    auth: 'apiKey',
    scopes: ['webhooks:write'],
    pathParams: { id: 'the endpoint id (wh_...)', deliveryId: 'the delivery id (whd_...)' },
    responses: { 202: { description: 'Queued again.', schema: deliveryEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'], 503: ['service_unavailable'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Suppressions, received email, templates

const suppressions: Operation[] = section('suppressions', 'Suppressions', [
  {
    method: 'post',
    path: '/suppressions',
    operationId: 'addSuppressions',
    summary: 'Suppress addresses (or record category opt-outs)',
    description: '`email` or `emails` (up to 1,000), on the account list or a tenant\'s (`tenant`). With `category` (product or newsletter) they are category opt-outs instead. 201 when at least one was added, 200 when all were there.',
    auth: 'apiKey',
    scopes: ['suppressions:write'],
    body: { schema: addSuppressionsSchema, example: { emails: ['bounced@example.com', 'gone@example.com'] } },
    responses: {
      201: { description: 'At least one address was added.', schema: suppressionsAddedSchema, example: { suppressions: [ex.exampleSuppression], created: ['bounced@example.com'], existing: [] } },
      200: { description: 'Every address was already on the list.', schema: suppressionsAddedSchema },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/suppressions',
    operationId: 'listSuppressions',
    summary: 'List suppressions (or category opt-outs)',
    description: `${page('Suppressions')} Filters: \`email\` (with it, that address's category opt-outs too), \`reason\`, \`tenant\`; with \`category\`, the opt-outs of that category instead.`,
    auth: 'apiKey',
    scopes: ['suppressions:write', 'account:read'],
    query: pageQuerySchema.extend(suppressionFilterFields),
    responses: { 200: { description: 'A page of suppressions or opt-outs.', schema: suppressionListSchema, example: { suppressions: [ex.exampleSuppression], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  {
    method: 'delete',
    path: '/suppressions',
    operationId: 'removeSuppression',
    summary: 'Remove a suppression (or resubscribe to a category)',
    auth: 'apiKey',
    scopes: ['suppressions:write'],
    query: removeSuppressionSchema,
    responses: { 200: { description: 'Removed.', schema: suppressionRemovedSchema, example: { ok: true, suppression: ex.exampleSuppression } } },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
]);

const receivedEmails: Operation[] = section('received-emails', 'Received emails', [
  {
    method: 'get',
    path: '/received-emails',
    operationId: 'listReceivedEmails',
    summary: 'List received (inbound) emails',
    description: `${page('Received email')} Filters: \`to\`, \`from\`, \`since\`. Items have no bodies, headers or links.`,
    auth: 'apiKey',
    scopes: ['account:read'],
    query: listReceivedEmailsQuerySchema,
    responses: { 200: { description: 'A page of received emails.', schema: listOf('received_emails', receivedEmailSummarySchema), example: { received_emails: [ex.exampleReceivedEmail], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/received-emails/{id}',
    operationId: 'getReceivedEmail',
    summary: 'Retrieve a received email',
    description: 'Bodies, headers and attachments (base64) inline while the answer stays small; larger ones and the raw message as presigned URLs (1 hour).',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: { id: 'the received email id (inb_...)' },
    responses: { 200: { description: 'The received email, whole.', schema: receivedEmailEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
]);

const aliasParam = { alias: 'the template alias' };
const templateRead = ['templates:write', 'account:read'] as const;
const templates: Operation[] = section('templates', 'Templates', [
  {
    method: 'post',
    path: '/templates',
    operationId: 'createTemplate',
    summary: 'Create a template (a draft)',
    auth: 'apiKey',
    scopes: ['templates:write'],
    body: { schema: createTemplateSchema, example: { name: 'Welcome', alias: 'welcome', subject: 'Welcome, {{first_name}}', html: '<p>Hi {{first_name}}, welcome aboard.</p>', variables: [{ key: 'first_name', type: 'string', fallback_value: 'there' }] } },
    responses: { 201: { description: 'The template.', schema: templateEnvelopeSchema, example: { template: { ...ex.exampleTemplate, status: 'draft', published_at: null, has_unpublished_changes: true, published_version: null } } } },
    errors: { 403: ['forbidden', 'limit_exceeded'], 409: ['conflict'] },
  },
  {
    method: 'get',
    path: '/templates',
    operationId: 'listTemplates',
    summary: 'List templates',
    description: page('Templates (without bodies)'),
    auth: 'apiKey',
    scopes: [...templateRead],
    query: listTemplatesQuerySchema,
    responses: { 200: { description: 'A page of templates.', schema: listOf('templates', templateSummarySchema) } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/templates/{alias}',
    operationId: 'getTemplate',
    summary: 'Retrieve a template',
    auth: 'apiKey',
    scopes: [...templateRead],
    pathParams: aliasParam,
    responses: { 200: { description: 'The template (its draft).', schema: templateEnvelopeSchema, example: { template: ex.exampleTemplate } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'patch',
    path: '/templates/{alias}',
    operationId: 'updateTemplate',
    summary: "Edit a template's draft",
    description: 'Sends keep using the published version until the next publish.',
    auth: 'apiKey',
    scopes: ['templates:write'],
    pathParams: aliasParam,
    body: { schema: updateTemplateSchema, example: { subject: 'Welcome to Acme, {{first_name}}' } },
    responses: { 200: { description: 'The template after the change.', schema: templateEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  {
    method: 'delete',
    path: '/templates/{alias}',
    operationId: 'deleteTemplate',
    summary: 'Delete a template',
    auth: 'apiKey',
    scopes: ['templates:write'],
    pathParams: aliasParam,
    responses: { 200: { description: 'Deleted.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  {
    method: 'post',
    path: '/templates/{alias}/publish',
    operationId: 'publishTemplate',
    summary: 'Publish the draft',
    auth: 'apiKey',
    scopes: ['templates:write'],
    pathParams: aliasParam,
    responses: { 200: { description: 'The template, its draft now the published version.', schema: templateEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  {
    method: 'post',
    path: '/templates/{alias}/render',
    operationId: 'renderTemplate',
    summary: 'Render a template without sending',
    description: 'The draft (default) or the published version (`?version=published`) with the given values; an empty body renders without values.',
    auth: 'apiKey',
    scopes: [...templateRead],
    pathParams: aliasParam,
    query: renderTemplateQuerySchema,
    body: { schema: renderTemplateSchema, optional: true, example: { variables: { first_name: 'Ada' } } },
    responses: { 200: { description: 'The rendered subject and bodies, with warnings.', schema: templatePreviewSchema, example: { subject: 'Welcome, Ada', html: '<p>Hi Ada, welcome aboard.</p>', text: null, warnings: [] } } },
    errors: { 403: ['forbidden'], 409: ['conflict'], 422: ['validation_error'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Automations and events (also the dashboard's /api/events)

const autoParam = { id: 'the automation id (auto_...)' };
const eventsOp = op({
  group: 'automations',
  tag: 'Events',
  method: 'post',
  path: '/events',
  operationId: 'sendEvent',
  summary: 'Send a custom event',
  description: "Starts runs of active automations whose trigger is the event's name, resumes runs waiting for it and cancels runs whose trigger lists it in cancel_on_events. Any key that may send may post events; a key limited to a tenant may not.",
  auth: 'apiKey',
  scopes: ['emails:send'],
  requestHeaders: ['idempotencyKey'],
  body: { schema: eventRequestSchema, example: ex.exampleEvent },
  responses: {
    202: {
      description: 'Accepted.',
      schema: eventAcceptedSchema,
      example: { event: { id: ex.id('ae'), ...ex.exampleEvent, source: 'api', created_at: '2026-11-23T09:30:00.000Z' }, matched_automations: 1, resumed_runs: 0, cancelled_runs: 0 },
    },
  },
  errors: { 403: ['forbidden'], 409: ['idempotency_conflict'], 503: ['service_unavailable'] },
});

const automations: Operation[] = section('automations', 'Automations', [
  eventsOp,
  {
    method: 'post',
    path: '/automations',
    operationId: 'createAutomation',
    summary: 'Create an automation',
    description: 'A draft unless `status: active`. Every save validates the whole definition.',
    auth: 'apiKey',
    scopes: ['full'],
    body: { schema: createAutomationSchema, example: ex.exampleAutomationRequest },
    responses: { 201: { description: 'The automation.', schema: automationEnvelopeSchema, example: { automation: ex.exampleAutomation } } },
    errors: { 403: ['forbidden', 'limit_exceeded'] },
  },
  {
    method: 'get',
    path: '/automations',
    operationId: 'listAutomations',
    summary: 'List automations',
    description: page('Automations') + ' Filter: `status`.',
    auth: 'apiKey',
    scopes: ['account:read'],
    query: listAutomationsQuerySchema,
    responses: { 200: { description: 'A page of automations.', schema: listOf('automations', automationSchema) } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/automations/{id}',
    operationId: 'getAutomation',
    summary: 'Retrieve an automation',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: autoParam,
    responses: { 200: { description: 'The automation.', schema: automationEnvelopeSchema, example: { automation: ex.exampleAutomation } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'patch',
    path: '/automations/{id}',
    operationId: 'updateAutomation',
    summary: 'Change an automation',
    description: 'Any of name, trigger, steps (each replaced whole). Runs under way keep the version they started with.',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: autoParam,
    body: { schema: updateAutomationSchema, example: { name: 'Welcome series (v2)' } },
    responses: { 200: { description: 'The automation after the change.', schema: automationEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  {
    method: 'delete',
    path: '/automations/{id}',
    operationId: 'deleteAutomation',
    summary: 'Delete an automation',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: autoParam,
    responses: { 200: { description: 'Deleted.', schema: okSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  {
    method: 'post',
    path: '/automations/{id}',
    operationId: 'changeAutomationStatus',
    summary: 'Activate or pause an automation',
    auth: 'apiKey',
    scopes: ['full'],
    pathParams: autoParam,
    body: { schema: automationActionSchema, example: { action: 'activate' } },
    responses: { 200: { description: 'The automation with its new status.', schema: automationEnvelopeSchema } },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  {
    method: 'get',
    path: '/automations/{id}/runs',
    operationId: 'listAutomationRuns',
    summary: "List an automation's runs",
    description: page('Runs') + ' Filter: `status`.',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: autoParam,
    query: listRunsQuerySchema,
    responses: { 200: { description: 'A page of runs.', schema: listOf('runs', runSummarySchema), example: { runs: [ex.exampleRunSummary], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/automations/{id}/runs/{run_id}',
    operationId: 'getAutomationRun',
    summary: 'Retrieve a run',
    auth: 'apiKey',
    scopes: ['account:read'],
    pathParams: { ...autoParam, run_id: 'the run id (run_...)' },
    responses: { 200: { description: 'The run with every step it took.', schema: runEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Imports

const IMPORT_READ = ['account:read', 'domains:write', 'webhooks:write', 'templates:write', 'suppressions:write'] as const;
const migrationParam = { id: 'the import id (mig_...)' };
const migrations: Operation[] = section('migrations', 'Imports', [
  {
    method: 'post',
    path: '/migrations',
    operationId: 'startImport',
    summary: 'Import from SendGrid, Postmark or Mailgun (or continue)',
    description:
      'Imports domains, webhooks, templates and suppressions. One request works about 25 seconds: while `has_more` is true, repeat the same body with `cursor: next_cursor` (after `retry_after_seconds` when present). The provider key is used for the request only.',
    auth: 'apiKey',
    scopes: ['domains:write', 'webhooks:write', 'templates:write', 'suppressions:write'],
    scopesCheckedBy: 'the use case: the write scope of every selected resource (or full)',
    body: { schema: startImportSchema, example: ex.exampleMigrationRequest },
    responses: { 200: { description: 'The import report (a preview with dry_run).', schema: migrationEnvelopeSchema } },
    errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['conflict'], 429: ['rate_limited'], 502: ['upstream_error'] },
  },
  {
    method: 'get',
    path: '/migrations',
    operationId: 'listImports',
    summary: 'List imports',
    description: 'Kept imports (not previews), newest first, with their totals. `?limit` (1-100, default 20), `?cursor`.',
    auth: 'apiKey',
    scopes: [...IMPORT_READ],
    query: listImportsQuerySchema,
    responses: { 200: { description: 'A page of imports.', schema: listOf('migrations', migrationSummarySchema), example: { migrations: [ex.exampleMigrationSummary], has_more: false, next_cursor: null } } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/migrations/{id}',
    operationId: 'getImport',
    summary: 'Retrieve an import report',
    description: 'The full report, every request merged.',
    auth: 'apiKey',
    scopes: [...IMPORT_READ],
    pathParams: migrationParam,
    responses: { 200: { description: 'The report.', schema: migrationEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/migrations/{id}/report',
    operationId: 'downloadImportReport',
    summary: 'Download an import report (CSV or JSON)',
    auth: 'apiKey',
    scopes: [...IMPORT_READ],
    pathParams: migrationParam,
    query: reportQuerySchema,
    responses: {
      200: { description: 'CSV (default; `Content-Disposition: attachment`), or with `?format=json` the rows as JSON.', schema: migrationReportSchema, mediaType: 'text/csv', headers: ['contentDisposition'] },
    },
    errors: { 403: ['forbidden'] },
  },
]);

// ---------------------------------------------------------------------------------------------------
// Public links (no API key: the signed token is the authority)

const tokenParam = { token: 'the signed token of the link (up to 4 KB)' };
const links: Operation[] = section('links', 'Links', [
  {
    method: 'get',
    path: '/unsubscribe/{token}',
    operationId: 'unsubscribePage',
    summary: 'Unsubscribe confirmation page',
    description: 'No side effects (prefetchers do not unsubscribe): the page posts the confirmation back.',
    auth: 'public',
    pathParams: tokenParam,
    responses: { 200: { description: 'The confirmation page.', mediaType: 'text/html' }, 404: { description: 'Not a valid link: a page saying so.', mediaType: 'text/html' } },
  },
  {
    method: 'post',
    path: '/unsubscribe/{token}',
    operationId: 'unsubscribe',
    summary: 'One-click unsubscribe (RFC 8058)',
    description: 'Any body (mail providers post `List-Unsubscribe=One-Click`); the confirmation page posts `source=confirmation_page` and gets a page back.',
    auth: 'public',
    pathParams: tokenParam,
    responses: { 200: { description: 'Unsubscribed: JSON, or a page for the confirmation page\'s form.', schema: z.strictObject({ unsubscribed: z.literal(true).describe('always true: the address is unsubscribed') }), mediaType: 'text/html', example: { unsubscribed: true } } },
  },
  {
    method: 'get',
    path: '/t/open/{token}',
    operationId: 'trackOpen',
    summary: 'Open-tracking pixel',
    auth: 'public',
    pathParams: tokenParam,
    responses: { 200: { description: 'A transparent 1x1 GIF; the open is recorded.', mediaType: 'image/gif' } },
  },
  {
    method: 'get',
    path: '/t/click/{token}',
    operationId: 'trackClick',
    summary: 'Click-tracking redirect',
    auth: 'public',
    pathParams: tokenParam,
    responses: { 302: { description: 'To the signed URL (only); the click is recorded.', headers: ['location'], requiredHeaders: ['location'] } },
  },
]);

// ---------------------------------------------------------------------------------------------------
// The dashboard's JSON doors: sign-in, sign-out, session; /api/events and /api/webhooks (session cookie)

/** The same route code behind the session instead of an API key (functions/api/dashboard/api-routes.ts). */
function sessionDoor(operation: Operation): Operation {
  const name = operation.operationId;
  return {
    ...operation,
    group: 'dashboard',
    tag: 'Dashboard session',
    path: `/api${operation.path}`,
    operationId: `session${name[0]!.toUpperCase()}${name.slice(1)}`,
    auth: 'session',
    description: `${operation.path} for a browser signed in to the dashboard (its session cookie, and X-CSRF-Token on state-changing requests); an API key is not accepted here.${operation.description ? ` ${operation.description}` : ''}`,
    errors: { ...operation.errors, 403: [...new Set([...(operation.errors?.[403] ?? []), 'forbidden' as const])] },
  };
}

const dashboard: Operation[] = section('dashboard', 'Dashboard session', [
  {
    method: 'post',
    path: '/dashboard/sign-in',
    operationId: 'signIn',
    summary: 'Sign in to the dashboard',
    description: 'Same-origin only; rate limited per email address and per client address. As JSON: the session and the `svc_session` cookie. As the sign-in page\'s form: 303 to the page it came from (or the page again with the error).',
    auth: 'public',
    body: { schema: signInRequestSchema, form: true, example: { email: 'owner@acme.com', password: 'correct horse battery staple' } },
    responses: {
      200: { description: 'Signed in (JSON).', schema: sessionSchema, headers: ['setCookie'], requiredHeaders: ['setCookie'] },
      303: { description: 'Signed in (a form): to the dashboard.', headers: ['setCookie', 'location'], requiredHeaders: ['location'] },
      // The sign-in page's form is answered with the page again, showing the error, and the same status.
      ...Object.fromEntries([400, 401, 403, 429].map((status) => [status, { description: 'The form: the sign-in page again, with the error.', mediaType: 'text/html' as const }])),
    },
    errors: { 401: ['unauthorized'], 403: ['forbidden'], 429: ['rate_limited'] },
  },
  {
    method: 'post',
    path: '/dashboard/sign-out',
    operationId: 'signOut',
    summary: 'Sign out',
    auth: 'session',
    responses: {
      200: { description: 'Signed out (JSON); the cookie is cleared.', schema: okSchema, headers: ['setCookie'] },
      303: { description: 'Signed out (a form): to the sign-in page.', headers: ['setCookie', 'location'], requiredHeaders: ['location'] },
    },
    errors: { 403: ['forbidden'] },
  },
  {
    method: 'get',
    path: '/dashboard/session',
    operationId: 'getSession',
    summary: 'Who is signed in',
    description: 'The same answer as the sign-in, with the CSRF token.',
    auth: 'session',
    responses: { 200: { description: 'The session.', schema: sessionSchema } },
  },
  sessionDoor({
    ...eventsOp,
    description: `${eventsOp.description} A session may also dry-run one automation (\`dry_run\` + \`automation_id\`): it runs even if draft or paused, delays and waits are skipped, sends are stubbed; the answer is 200 with the trace.`,
    responses: { ...eventsOp.responses, 200: { description: 'The dry run (dry_run: true).', schema: dryRunSchema } },
    errors: { ...eventsOp.errors, 404: ['not_found'] },
  }),
  ...webhookOps.map(sessionDoor),
]);

// ---------------------------------------------------------------------------------------------------
// This document

const reference: Operation[] = section('reference', 'Reference', [
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This document (OpenAPI 3.1)',
    auth: 'public',
    responses: {
      200: {
        description: 'The OpenAPI document.',
        schema: z.looseObject({
          openapi: z.string().describe('the OpenAPI version: 3.1.0'),
          info: z.looseObject({}).describe("the API's title, version, description and license"),
          paths: z.looseObject({}).describe('every operation, by path and method'),
        }),
      },
    },
  },
  {
    method: 'get',
    path: '/reference',
    operationId: 'getReferencePage',
    summary: 'The API reference (HTML)',
    description: 'This document as a page: every operation with its parameters, bodies, answers, error codes and examples.',
    auth: 'public',
    responses: { 200: { description: 'The reference page.', mediaType: 'text/html' } },
  },
]);

export const OPERATIONS: readonly Operation[] = [
  ...emails,
  ...attachments,
  ...apiKeys,
  ...smtpCredentials,
  ...domains,
  ...tenants,
  ...webhookOps,
  ...suppressions,
  ...receivedEmails,
  ...templates,
  ...automations,
  ...migrations,
  ...links,
  ...dashboard,
  ...reference,
];

/** Sections of the reference, in order, with what each covers. */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Emails', description: 'Send (one, batch), read, list, resend, reschedule and cancel emails; build test webhook events.' },
  { name: 'Attachments', description: 'Uploads for files too large for a request: an id and a presigned PUT URL, then `attachment_id` in a send.' },
  { name: 'API keys', description: 'Keys (`svc_`), their scopes, tenant and allowed sending domains. The secret is shown once.' },
  { name: 'SMTP credentials', description: 'Passwords (`svcsmtp_`) of the SMTP relay (port 587, STARTTLS). Shown once.' },
  { name: 'Domains', description: 'Sending domains: DNS records, verification, delivery settings, DNS apply and stored DNS host credentials.' },
  { name: 'Tenants', description: "Your customers, isolated under the account: domains, suppression list, stats, ramp, daily limit, pause. Full-access keys only." },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, their delivery log and replays.' },
  { name: 'Suppressions', description: 'The account and tenant suppression lists, and category opt-outs (product, newsletter).' },
  { name: 'Received emails', description: 'Inbound email on receive-enabled domains.' },
  { name: 'Templates', description: 'Drafts, publishing and previews; sends use the published version by alias.' },
  { name: 'Events', description: 'Custom events that start, resume and cancel automation runs.' },
  { name: 'Automations', description: 'Definitions (trigger and steps), activation, and their runs.' },
  { name: 'Imports', description: 'Imports from SendGrid, Postmark and Mailgun, and their reports.' },
  { name: 'Links', description: 'What the links in sent emails lead to: unsubscribe, open pixel, click redirect. Public: the signed token is the authority.' },
  { name: 'Dashboard session', description: "The dashboard's JSON doors: sign-in, sign-out, the session, and /api/events and /api/webhooks for a signed-in browser." },
  { name: 'Reference', description: 'This document and its page.' },
];
