/** The emails API group: send (one, batch), read (one, list), resend, reschedule/cancel. */
import type { Hono } from 'hono';
import { IDEMPOTENCY_HEADER, requestFingerprint, validateIdempotencyKey, type Idempotency } from '../../../shared/domain/emails/idempotency';
import { sendRequestSchema, type SendRequest } from '../../../shared/domain/emails/send-request';
import { updateEmailSchema } from '../../../shared/domain/emails/update-request';
import { NotFoundError } from '../../../shared/domain/errors';
import { tenantParam } from '../../../shared/domain/suppressions/schemas';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { rateLimit } from '../../../shared/http/middleware/rate-limit';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith, readJson } from '../../../shared/http/validate';
import type { Services } from '../../../shared/services';
import { listEmails } from '../../../shared/usecases/list-emails';
import { resendEmail } from '../../../shared/usecases/resend-email';
import { updateScheduledEmail } from '../../../shared/usecases/scheduled-emails';
import { sendBatch, validateBatchShape } from '../../../shared/usecases/send-batch';
import { getEmail, sendEmail } from '../../../shared/usecases/send-email';
import { sendTestEvent, testEventSchema } from '../../../shared/usecases/test-event';

function idempotencyOf(header: string | undefined, endpoint: string, body: unknown): Idempotency | undefined {
  const key = validateIdempotencyKey(header);
  return key === undefined ? undefined : { key, fingerprint: requestFingerprint(endpoint, body) };
}

export function createEmailsApp(services: Services): Hono<ApiEnv> {
  const app = createApi(services);

  app.post('/emails', requireScope('emails:send'), async (c) => {
    const body = await readJson(c);
    const request = parseWith(sendRequestSchema, body) as SendRequest;
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), 'emails', body);
    return c.json(await sendEmail(services, c.get('principal'), request, { idempotency }), 200);
  });

  // Up to 100 sends, index-aligned results; Idempotency-Key covers the whole batch.
  app.post('/emails/batch', requireScope('emails:send'), async (c) => {
    const body = await readJson(c);
    const items = validateBatchShape(body);
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), 'emails/batch', body);
    return c.json(await sendBatch(services, c.get('principal'), items, idempotency), 200);
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
