/**
 * The list of every group of the HTTP API: its operations in the reference's order, the reference's
 * sections (tags) and the response components the groups name. Each group's operations are declared once,
 * keyed by operationId, in its own folder beside its schemas and handlers (./emails/operations.ts,
 * ./account/audit-operations.ts, ...). A group's Hono app registers each of its operations with `route`
 * (shared/doors/http/route.ts), which takes the method, path, scope check, rate limit and request
 * validation from the declaration; the OpenAPI document (./openapi.ts, built by
 * shared/doors/openapi/document.ts) and API Gateway's routes (infra/api-routes.ts) are generated from the
 * same objects. test/unit/openapi/routes.test.ts checks that no app serves a route outside them.
 */
import type * as z from 'zod';
import type { ApiDescription } from '#shared/doors/openapi/document';
import type { Operation } from '#shared/doors/openapi/operation';
import { conditionSchema } from '#shared/domain/automations/condition-schema';
import { accountOps } from './account/account-operations';
import { auditOps } from './account/audit-operations';
import { privacyOps } from './account/erasure-operations';
import { exportOps } from './account/export-operations';
import { apiKeyOps } from './api-keys/operations';
import { attachmentOps } from './attachments/operations';
import { automationOps } from './automations/operations';
import { dashboardOps } from './dashboard/operations';
import { domainOps } from './domains/operations';
import { emailOps } from './emails/operations';
import { linkOps } from './links/operations';
import { migrationOps } from './migrations/operations';
import { receivedEmailOps } from './received-emails/operations';
import { referenceOps } from './reference/operations';
import { smtpCredentialOps } from './smtp-credentials/operations';
import { suppressionOps } from './suppressions/suppression-operations';
import { validationOps } from './suppressions/validation-operations';
import { templateOps } from './templates/operations';
import { tenantOps } from './tenants/operations';
import { webhookOps } from './webhooks/operations';
import { emailSchema, emailEnvelopeSchema, sendResultSchema } from './emails/schemas';
import { attachmentUploadSchema } from './attachments/schemas';
import { apiKeySchema } from './api-keys/schemas';
import { smtpCredentialSchema } from './smtp-credentials/schemas';
import { dnsProviderSchema } from './domains/dns-provider-schemas';
import { dashboardUserSchema, sessionSchema } from './dashboard/schemas';
import { domainSchema, dnsRecordSchema, domainEnvelopeSchema } from './domains/schemas';
import { tenantSchema, tenantEnvelopeSchema } from './tenants/schemas';
import { webhookSchema, webhookEnvelopeSchema, deliverySchema, deliveryEnvelopeSchema } from './webhooks/schemas';
import { suppressionSchema, categoryOptOutSchema } from './suppressions/suppression-schemas';
import { receivedEmailSummarySchema, receivedEmailSchema } from './received-emails/schemas';
import { templateSchema, templateSummarySchema, templateEnvelopeSchema } from './templates/schemas';
import { validationSchema } from './suppressions/validation-schemas';
import { stepSchema, automationSchema, automationEnvelopeSchema, runSummarySchema, runDetailSchema } from './automations/schemas';
import { migrationSchema, migrationSummarySchema, migrationEnvelopeSchema } from './migrations/schemas';

const all = (operations: Readonly<Record<string, Operation>>): Operation[] => Object.values(operations);

/** In the reference's order. */
export const OPERATIONS: readonly Operation[] = [
  ...all(emailOps),
  ...all(attachmentOps),
  ...all(apiKeyOps),
  ...all(smtpCredentialOps),
  ...all(domainOps),
  ...all(tenantOps),
  ...all(webhookOps),
  ...all(suppressionOps),
  ...all(validationOps),
  ...all(receivedEmailOps),
  ...all(templateOps),
  ...all(automationOps),
  ...all(migrationOps),
  ...all(accountOps),
  ...all(privacyOps),
  ...all(exportOps),
  ...all(auditOps),
  ...all(linkOps),
  ...all(dashboardOps),
  ...all(referenceOps),
];

/** Sections of the reference, in order, with what each covers. */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Emails', description: 'Send (one, batch), read, list, resend, reschedule and cancel emails; build test webhook events.' },
  {
    name: 'Attachments',
    description: 'Uploads for files too large for a request: an id and a presigned PUT URL, then `attachment_id` in a send.',
  },
  { name: 'API keys', description: 'Keys (`svc_`), their scopes, tenant and allowed sending domains. The secret is shown once.' },
  { name: 'SMTP credentials', description: 'Passwords (`svcsmtp_`) of the SMTP relay (port 587, STARTTLS). Shown once.' },
  {
    name: 'Domains',
    description: 'Sending domains: DNS records, verification, delivery settings, DNS apply and stored DNS host credentials.',
  },
  {
    name: 'Tenants',
    description:
      'Your customers, isolated under the account: domains, suppression list, stats, ramp, daily limit, pause. Keys with `mail:admin` (or `full`) only.',
  },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, their delivery log and replays.' },
  { name: 'Suppressions', description: 'The account and tenant suppression lists, and category opt-outs (product, newsletter).' },
  {
    name: 'Validations',
    description:
      "Address validation: syntax, the domain's mail hosts, disposable and role addresses, suppressions and typos, as a verdict and a score (docs/deliverability.md).",
  },
  { name: 'Received emails', description: 'Inbound email on receive-enabled domains.' },
  { name: 'Templates', description: 'Drafts, publishing and previews; sends use the published version by alias.' },
  { name: 'Events', description: 'Custom events that start, resume and cancel automation runs.' },
  { name: 'Automations', description: 'Definitions (trigger and steps), activation, and their runs.' },
  { name: 'Imports', description: 'Imports from SendGrid, Postmark and Mailgun, and their reports.' },
  { name: 'Account', description: "The account's settings: its plan and how long its data is kept (retention)." },
  {
    name: 'Privacy',
    description: "Erasure of a person's data by address: every record, body and log naming it; its suppressions kept as a hash.",
  },
  { name: 'Exports', description: 'The whole account as NDJSON files (and suppressions as CSV) to download: start, follow, download.' },
  {
    name: 'Audit log',
    description:
      'Every change to the account by a key, a dashboard user or the admin CLI, and every sign-in: who, when, from where, what. Read-only, kept 400 days.',
  },
  {
    name: 'Links',
    description:
      'What the links in sent emails lead to: unsubscribe, open pixel, click redirect. Public: the signed token is the authority.',
  },
  {
    name: 'Dashboard session',
    description: "The dashboard's JSON doors: sign-in, sign-out, the session, and /api/events and /api/webhooks for a signed-in browser.",
  },
  { name: 'Reference', description: 'This document and its page.' },
];

/** The groups' response components with a name of their own, in the document's order (after the common ones: Error, Unauthorized, Ok, Tag). */
export const NAMED_SCHEMAS: readonly (readonly [z.ZodType, string])[] = [
  [emailSchema, 'Email'],
  [emailEnvelopeSchema, 'EmailResponse'],
  [sendResultSchema, 'SendEmailResponse'],
  [attachmentUploadSchema, 'AttachmentUpload'],
  [apiKeySchema, 'ApiKey'],
  [smtpCredentialSchema, 'SmtpCredential'],
  [dnsProviderSchema, 'DnsProvider'],
  [dashboardUserSchema, 'DashboardUser'],
  [sessionSchema, 'DashboardSession'],
  [domainSchema, 'Domain'],
  [dnsRecordSchema, 'DnsRecord'],
  [domainEnvelopeSchema, 'DomainResponse'],
  [tenantSchema, 'Tenant'],
  [tenantEnvelopeSchema, 'TenantResponse'],
  [webhookSchema, 'Webhook'],
  [webhookEnvelopeSchema, 'WebhookResponse'],
  [deliverySchema, 'WebhookDelivery'],
  [deliveryEnvelopeSchema, 'WebhookDeliveryResponse'],
  [suppressionSchema, 'Suppression'],
  [categoryOptOutSchema, 'CategoryOptOut'],
  [validationSchema, 'Validation'],
  [receivedEmailSummarySchema, 'ReceivedEmailSummary'],
  [receivedEmailSchema, 'ReceivedEmail'],
  [templateSchema, 'Template'],
  [templateSummarySchema, 'TemplateSummary'],
  [templateEnvelopeSchema, 'TemplateResponse'],
  [conditionSchema, 'Condition'],
  [stepSchema, 'AutomationStep'],
  [automationSchema, 'Automation'],
  [automationEnvelopeSchema, 'AutomationResponse'],
  [runSummarySchema, 'AutomationRunSummary'],
  [runDetailSchema, 'AutomationRun'],
  [migrationSchema, 'Migration'],
  [migrationSummarySchema, 'MigrationSummary'],
  [migrationEnvelopeSchema, 'MigrationResponse'],
];

/** Everything the OpenAPI document describes. */
export const API: ApiDescription = { operations: OPERATIONS, tags: TAGS, schemas: NAMED_SCHEMAS };
