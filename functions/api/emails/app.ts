/** The emails API group: send (one, batch), read (one, list), resend, reschedule/cancel. */
import type { Hono } from 'hono';
import { IDEMPOTENCY_HEADER, idempotencyOf } from '#shared/domain/emails/idempotency';
import { sendRequestSchema, type ParsedSendRequest } from '#shared/domain/emails/send-request';
import { NotFoundError, ValidationError } from '#shared/domain/errors';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { parseWith, readJson } from '#shared/doors/http/validate';
import { emailOps } from './operations';
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '#shared/services';
import { listEmails } from '#shared/usecases/emails/list-emails';
import { resendEmail } from '#shared/usecases/send/resend-email';
import { updateScheduledEmail } from '#shared/usecases/emails/scheduled-emails';
import { sendBatch, validateBatchShape, type BatchValidation } from '#shared/usecases/send/send-batch';
import { getEmail } from '#shared/usecases/emails/get-email';
import { sendEmail } from '#shared/usecases/send';
import { sendTestEvent } from '#shared/usecases/webhooks/test-event';

/** `x-batch-validation: strict | permissive` (the resend SDK's header); permissive when absent. */
function batchValidationOf(header: string | undefined): BatchValidation {
  if (header === undefined || header === '') return 'permissive';
  const value = header.trim().toLowerCase();
  if (value === 'strict' || value === 'permissive') return value;
  throw new ValidationError('x-batch-validation must be strict or permissive.', {
    details: { fields: [{ field: 'x-batch-validation', message: 'strict or permissive' }] },
  });
}

/** POST /emails resolves its caller inside the send's first read (key, account and context in one round trip). */
const isSingleSend = (c: { req: { method: string; path: string } }) => c.req.method === 'POST' && c.req.path === '/emails';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type EmailsServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;

export function createEmailsApp(services: EmailsServices): Hono<ApiEnv> {
  const app = createApi(services, { deferFor: isSingleSend });
  const route = routes(app, services);

  // The send core checks emails:send once it has read the key (scopesCheckedBy).
  route(emailOps.sendEmail, async (c) => {
    const hash = c.get('apiKeyHash');
    let request: ParsedSendRequest;
    try {
      request = parseWith(sendRequestSchema, await readJson(c));
    } catch (error) {
      // A bad request from a bad caller is answered as a bad caller: 401 / 403 before 400.
      await services.sendContextLoader.refuseCallerFirst({ apiKeyHash: hash }, services.clock.now());
      throw error;
    }
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), 'emails', request);
    return c.json(await sendEmail(services, { apiKeyHash: hash }, request, { idempotency }), 200);
  });

  // Up to 100 sends, index-aligned results; Idempotency-Key covers the whole batch. The body is
  // {"emails": [...]} or a bare array (resend SDK); x-batch-validation: strict refuses a batch with any invalid item.
  route(emailOps.sendBatch, async (c) => {
    const items = validateBatchShape(await readJson(c));
    const validation = batchValidationOf(c.req.header('x-batch-validation'));
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), `emails/batch/${validation}`, items);
    return c.json(await sendBatch(services, c.get('principal'), items, idempotency, validation), 200);
  });

  // A webhook payload of any event type, returned and (unless deliver is false) queued; no email is sent.
  route(emailOps.sendTestEvent, async (c, { body }) => {
    return c.json(await sendTestEvent(services, c.get('principal'), body), 200);
  });

  // Reschedule ({scheduled_at}) or cancel ({cancel: true}) while scheduled; answers {email}.
  route(emailOps.updateEmail, async (c, { body, params }) => {
    return c.json({ email: await updateScheduledEmail(services, c.get('principal'), params.id, body) });
  });

  // POST /emails/{id}/cancel (the resend SDK's emails.cancel): same as PATCH {"cancel": true}.
  route(emailOps.cancelEmail, async (c, { params }) => {
    const email = await updateScheduledEmail(services, c.get('principal'), params.id, { cancel: true, scheduled_at: undefined });
    return c.json({ object: 'email', id: email.id, email }, 200);
  });

  route(emailOps.getEmail, async (c, { params }) => {
    const email = await getEmail(services, c.get('principal'), params.id);
    if (!email) throw new NotFoundError('Email', params.id);
    return c.json({ email });
  });

  // GET /emails: newest first, paginated; per-account rate limit (RATE_LIMITS.listEmails).
  route(emailOps.listEmails, async (c, { query }) => {
    return c.json(listPage('emails', await listEmails(services, c.get('principal'), query)));
  });

  // POST /emails/{id}/resend: a new send of a stored email through the send use case; answers like POST /emails.
  route(emailOps.resendEmail, async (c, { params }) => {
    return c.json(await resendEmail(services, c.get('principal'), params.id), 200);
  });

  return app;
}
