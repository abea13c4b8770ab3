/**
 * Every operation of the HTTP API, group by group: each group's operations are declared once, in their
 * own module here (./emails.ts, ...), keyed by operationId. A group's Hono app registers each of its
 * operations with `route` (shared/doors/http/route.ts), which takes the method, path, scope check, rate limit
 * and request validation from the declaration; the OpenAPI document (../document.ts) and API Gateway's
 * routes (infra/api-routes.ts) are generated from the same objects. test/unit/openapi/routes.test.ts
 * checks that no app serves a route outside them.
 */
import type { Operation } from '../operation';
import { accountOps } from './account';
import { apiKeyOps } from './api-keys';
import { attachmentOps } from './attachments';
import { auditOps } from './audit';
import { automationOps } from './automations';
import { dashboardOps } from './dashboard';
import { domainOps } from './domains';
import { emailOps } from './emails';
import { exportOps } from './exports';
import { linkOps } from './links';
import { migrationOps } from './migrations';
import { privacyOps } from './privacy';
import { receivedEmailOps } from './received-emails';
import { referenceOps } from './reference';
import { smtpCredentialOps } from './smtp-credentials';
import { suppressionOps } from './suppressions';
import { templateOps } from './templates';
import { tenantOps } from './tenants';
import { validationOps } from './validations';
import { webhookOps } from './webhooks';

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
  { name: 'Attachments', description: 'Uploads for files too large for a request: an id and a presigned PUT URL, then `attachment_id` in a send.' },
  { name: 'API keys', description: 'Keys (`svc_`), their scopes, tenant and allowed sending domains. The secret is shown once.' },
  { name: 'SMTP credentials', description: 'Passwords (`svcsmtp_`) of the SMTP relay (port 587, STARTTLS). Shown once.' },
  { name: 'Domains', description: 'Sending domains: DNS records, verification, delivery settings, DNS apply and stored DNS host credentials.' },
  { name: 'Tenants', description: "Your customers, isolated under the account: domains, suppression list, stats, ramp, daily limit, pause. Keys with `mail:admin` (or `full`) only." },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, their delivery log and replays.' },
  { name: 'Suppressions', description: 'The account and tenant suppression lists, and category opt-outs (product, newsletter).' },
  { name: 'Validations', description: 'Address validation: syntax, the domain\'s mail hosts, disposable and role addresses, suppressions and typos, as a verdict and a score (docs/deliverability.md).' },
  { name: 'Received emails', description: 'Inbound email on receive-enabled domains.' },
  { name: 'Templates', description: 'Drafts, publishing and previews; sends use the published version by alias.' },
  { name: 'Events', description: 'Custom events that start, resume and cancel automation runs.' },
  { name: 'Automations', description: 'Definitions (trigger and steps), activation, and their runs.' },
  { name: 'Imports', description: 'Imports from SendGrid, Postmark and Mailgun, and their reports.' },
  { name: 'Account', description: "The account's settings: its plan and how long its data is kept (retention)." },
  { name: 'Privacy', description: "Erasure of a person's data by address: every record, body and log naming it; its suppressions kept as a hash." },
  { name: 'Exports', description: "The whole account as NDJSON files (and suppressions as CSV) to download: start, follow, download." },
  { name: 'Audit log', description: 'Every change to the account by a key, a dashboard user or the admin CLI, and every sign-in: who, when, from where, what. Read-only, kept 400 days.' },
  { name: 'Links', description: 'What the links in sent emails lead to: unsubscribe, open pixel, click redirect. Public: the signed token is the authority.' },
  { name: 'Dashboard session', description: "The dashboard's JSON doors: sign-in, sign-out, the session, and /api/events and /api/webhooks for a signed-in browser." },
  { name: 'Reference', description: 'This document and its page.' },
];
