/** The emails API group: send (one, batch), read (one, list), resend, reschedule/cancel. */
import type { Hono } from 'hono';
import { IDEMPOTENCY_HEADER, idempotencyOf } from '../../../shared/domain/emails/idempotency';
import { sendRequestSchema } from '../../../shared/domain/emails/send-request';
import { updateEmailSchema } from '../../../shared/domain/emails/update-request';
import { NotFoundError, ValidationError } from '../../../shared/domain/errors';
import { tenantParam } from '../../../shared/domain/tenants/schemas';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { rateLimit } from '../../../shared/http/middleware/rate-limit';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith, readJson } from '../../../shared/http/validate';
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '../../../shared/services';
import { listEmails } from '../../../shared/usecases/list-emails';
import { resendEmail } from '../../../shared/usecases/resend-email';
import { updateScheduledEmail } from '../../../shared/usecases/scheduled-emails';
import { sendBatch, validateBatchShape, type BatchValidation } from '../../../shared/usecases/send-batch';
import { getEmail, sendEmail } from '../../../shared/usecases/send-email';
import { authenticateKeyHash } from '../../../shared/usecases/authenticate';
import { checkSendScope } from '../../../shared/usecases/send/policy';
import { sendTestEvent, testEventSchema } from '../../../shared/usecases/test-event';

/** `x-batch-validation: strict | permissive` (the resend SDK's header); permissive when absent. */
function batchValidationOf(header: string | undefined): BatchValidation {
  if (header === undefined || header === '') return 'permissive';
  const value = header.trim().toLowerCase();
  if (value === 'strict' || value === 'permissive') return value;
  throw new ValidationError('x-batch-validation must be strict or permissive.', { details: { fields: [{ field: 'x-batch-validation', message: 'strict or permissive' }] } });
}

/** POST /emails resolves its caller inside the send's first read (key, account and context in one round trip). */
const isSingleSend = (c: { req: { method: string; path: string } }) => c.req.method === 'POST' && c.req.path === '/emails';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type EmailsServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;

export function createEmailsApp(services: EmailsServices): Hono<ApiEnv> {
  const app = createApi(services, { deferFor: isSingleSend });

  // No requireScope here: the send core checks emails:send once it has read the key.
  app.post('/emails', async (c) => {
    const hash = c.get('apiKeyHash');
    let request;
    try {
      request = parseWith(sendRequestSchema, await readJson(c));
    } catch (error) {
      // A bad request from a bad caller is answered as a bad caller: 401 / 403 before 400.
      checkSendScope((await authenticateKeyHash(services, hash)).credential);
      throw error;
    }
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), 'emails', request);
    return c.json(await sendEmail(services, { apiKeyHash: hash }, request, { idempotency }), 200);
  });

  // Up to 100 sends, index-aligned results; Idempotency-Key covers the whole batch. The body is
  // {"emails": [...]} or a bare array (resend SDK); x-batch-validation: strict refuses a batch with any invalid item.
  app.post('/emails/batch', requireScope('emails:send'), async (c) => {
    const body = await readJson(c);
    const items = validateBatchShape(body);
    const validation = batchValidationOf(c.req.header('x-batch-validation'));
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), `emails/batch/${validation}`, items);
    return c.json(await sendBatch(services, c.get('principal'), items, idempotency, validation), 200);
  });

  // A webhook payload of any event type, returned and (unless deliver is false) queued; no email is sent.
  app.post('/emails/test', requireScope('full'), async (c) => {
    const input = await jsonBody(c, testEventSchema);
    return c.json(await sendTestEvent(services, c.get('principal'), input), 200);
  });

  // Reschedule ({scheduled_at}) or cancel ({cancel: true}) while scheduled; answers {email}.
  app.patch('/emails/:id', requireScope('emails:send'), async (c) => {
    const input = await jsonBody(c, updateEmailSchema);
    return c.json({ email: await updateScheduledEmail(services, c.get('principal'), c.req.param('id'), input) });
  });

  // POST /emails/{id}/cancel (the resend SDK's emails.cancel): same as PATCH {"cancel": true}.
  app.post('/emails/:id/cancel', requireScope('emails:send'), async (c) => {
    const email = await updateScheduledEmail(services, c.get('principal'), c.req.param('id'), { cancel: true, scheduled_at: undefined });
    return c.json({ object: 'email', id: email.id, email }, 200);
  });

  app.get('/emails/:id', requireScope('emails:send', 'account:read'), async (c) => {
    const email = await getEmail(services, c.get('principal'), c.req.param('id'));
    if (!email) throw new NotFoundError('Email', c.req.param('id'));
    return c.json({ email });
  });

  // GET /emails: newest first, paginated; per-account rate limit (RATE_LIMITS.listEmails).
  app.get('/emails', requireScope('emails:send', 'account:read'), rateLimit(services, 'listEmails'), async (c) => {
    const query = parseWith(pageQuerySchema.extend({ tenant: tenantParam.optional() }), c.req.query(), 'query');
    const page = await listEmails(services, c.get('principal'), query);
    return c.json({ emails: page.items, has_more: page.next_cursor !== null, next_cursor: page.next_cursor });
  });

  // POST /emails/{id}/resend: a new send of a stored email through the send use case; answers like POST /emails.
  app.post('/emails/:id/resend', requireScope('emails:send'), async (c) => {
    return c.json(await resendEmail(services, c.get('principal'), c.req.param('id')), 200);
  });

  return app;
}
