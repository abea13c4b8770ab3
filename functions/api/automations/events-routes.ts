/**
 * POST /events (spec, "Custom events"; docs/automations.md, "Events"): served by the automations Lambda.
 * Any key that may send (`emails:send` or `full`) may post events: an event's runs send email. 202 with
 * `{event, matched_automations, resumed_runs, cancelled_runs}`; Idempotency-Key as on POST /emails.
 */
import type { Hono } from 'hono';
import { eventRequestSchema } from '../../../shared/domain/automations/event-request';
import { IDEMPOTENCY_HEADER, idempotencyOf } from '../../../shared/domain/emails/idempotency';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { parseWith, readJson } from '../../../shared/http/validate';
import type { Services } from '../../../shared/services';
import { acceptEvent } from '../../../shared/usecases/runs/accept-event';

export function addEventRoutes(app: Hono<ApiEnv>, services: Services): void {
  app.post('/events', requireScope('emails:send'), async (c) => {
    const body = await readJson(c);
    const request = parseWith(eventRequestSchema, body);
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), 'events', body);
    return c.json(await acceptEvent(services, c.get('principal'), request, idempotency), 202);
  });
}
