/** The emails group's sent emails: reschedule or cancel one while scheduled, read one, list them, resend one. */
import type { Hono } from 'hono';
import { NotFoundError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { getEmail } from '#shared/usecases/emails/get-email';
import { listEmails } from '#shared/usecases/emails/list-emails';
import { updateScheduledEmail } from '#shared/usecases/emails/scheduled-emails';
import { resendEmail } from '#shared/usecases/send/resend-email';
import { emailOps } from './operations';
import type { EmailsServices } from './services';

export function addEmailRoutes(app: Hono<ApiEnv>, services: EmailsServices): void {
  const route = routes(app, services);

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
}
