/** The emails group's sends: one (POST /emails), a batch (POST /emails/batch), and a test webhook event (no email is sent). */
import type { Hono } from 'hono';
import { IDEMPOTENCY_HEADER, idempotencyOf } from '#shared/domain/emails/idempotency';
import { sendRequestSchema, type ParsedSendRequest } from '#shared/domain/emails/send-request';
import { ValidationError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { parseWith, readJson } from '#shared/doors/http/request-validation';
import { sendEmail } from '#shared/usecases/send';
import { sendBatch, validateBatchShape, type BatchValidation } from '#shared/usecases/send/send-batch';
import { sendTestEvent } from '#shared/usecases/webhooks/test-event';
import { emailOps } from './operations';
import type { EmailsServices } from './services';

/** `x-batch-validation: strict | permissive` (the resend SDK's header); permissive when absent. */
function batchValidationOf(header: string | undefined): BatchValidation {
  if (header === undefined || header === '') return 'permissive';
  const value = header.trim().toLowerCase();
  if (value === 'strict' || value === 'permissive') return value;
  throw new ValidationError('x-batch-validation must be strict or permissive.', {
    details: { fields: [{ field: 'x-batch-validation', message: 'strict or permissive' }] },
  });
}

export function addSendRoutes(app: Hono<ApiEnv>, services: EmailsServices): void {
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
}
