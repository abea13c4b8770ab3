/**
 * POST /events (spec, "Custom events"; docs/automations.md, "Events"), on any app whose authentication
 * sets the principal: the automations group (API keys) and the dashboard's /api/events (session cookie
 * + CSRF, functions/api/dashboard/app.ts). One copy of the route, two doors.
 *
 * Any key that may send (`emails:send` or `full`) may post events: an event's runs send email. 202 with
 * `{event, matched_automations, resumed_runs, cancelled_runs}`; Idempotency-Key as on POST /emails.
 * A dashboard session's dry run (`dry_run` + `automation_id`) answers 200 with the dry run's trace
 * (docs/automations.md, "Dry run"); API keys get 403 for it.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { eventRequestSchema } from '#shared/domain/automations/event-request';
import { IDEMPOTENCY_HEADER, idempotencyOf } from '#shared/domain/emails/idempotency';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { parseWith, readJson } from '#shared/doors/http/request-validation';
import { eventsOp } from './operations';
import { requireAutomationAccess } from '#shared/usecases/automations/automations';
import { acceptEvent, type AcceptEventDeps } from '#shared/usecases/automations/runs/accept-event';

/** A key limited to a tenant is refused (403) before its request is read, as on every account-wide group. */
export const accountKeyOnly: MiddlewareHandler<ApiEnv> = async (c, next) => {
  requireAutomationAccess(c.get('principal'));
  await next();
};

export function addEventRoutes(app: Hono<ApiEnv>, services: AcceptEventDeps): void {
  app.use('/events', accountKeyOnly);
  routes(app)(eventsOp, async (c) => {
    const body = await readJson(c);
    const request = parseWith(eventRequestSchema, body);
    const idempotency = idempotencyOf(c.req.header(IDEMPOTENCY_HEADER), 'events', body);
    const result = await acceptEvent(services, c.get('principal'), request, idempotency);
    return 'dry_run' in result ? c.json(result, 200) : c.json(result, 202);
  });
}
