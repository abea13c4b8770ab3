/**
 * Mailgun's door (docs/compat.md, "Mailgun"): `POST /v3/{domain}/messages`, as the official mailgun.js SDK
 * sends it, onto the one send core (./send-message.ts). Its routes name a domain (a path segment with a
 * dot), so SendGrid's `/v3/mail/send` (no dot) never reaches them; any other path under such a segment
 * answers Mailgun's 404. Every error is answered in Mailgun's shapes (./answers.ts): the compat app has
 * no onError of its own.
 */
import type { Context, Hono } from 'hono';
import { ValidationError } from '#shared/domain/errors';
import { logError } from '#shared/lib/log';
import type { ApiEnv } from '../../http/env';
import type { CompatServices } from '../services';
import { errorAnswer, type MailgunAnswer } from './answers';
import { apiKeyHashOfBasicAuth } from './auth';
import { checkFormType, formOf } from './read-form';
import { sendMailgunMessage } from './send-message';

/** A path segment that is a domain name: it has a dot (`mail`, `domains`, `templates` have none). */
const DOMAIN = ':domain{[^/]+\\.[^/]+}';
const ON_BEHALF_OF = 'x-mailgun-on-behalf-of';

function respond(c: Context<ApiEnv>, answer: MailgunAnswer): Response {
  for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
  if (typeof answer.body === 'string') return c.text(answer.body, answer.status as 401);
  return c.json(answer.body, answer.status as 200);
}

/** The handler's errors as Mailgun's answers (an unexpected one logged, answered 500 {"message"}). */
function mailgun(handler: (c: Context<ApiEnv>, domain: string) => Promise<MailgunAnswer>) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const domain = (c.req.param('domain') ?? '').toLowerCase();
    try {
      return respond(c, await handler(c, domain));
    } catch (error) {
      const answer = errorAnswer(error, domain);
      if (answer.status >= 500) logError('mailgun door failed', error, { request_id: c.get('requestId') });
      return respond(c, answer);
    }
  };
}

async function readForm(c: Context<ApiEnv>) {
  checkFormType(c.req.header('content-type'));
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new ValidationError('The body is not a valid form (multipart/form-data or application/x-www-form-urlencoded)', {
      details: { fields: [{ field: '(body)', message: 'not a valid form' }] },
    });
  }
  return formOf(form);
}

export function mountMailgun(app: Hono<ApiEnv>, services: CompatServices): void {
  app.post(
    `/v3/${DOMAIN}/messages`,
    mailgun(async (c, domain) => {
      const apiKeyHash = apiKeyHashOfBasicAuth(c.req.header('authorization'));
      const onBehalfOf = c.req.header(ON_BEHALF_OF);
      const form = await readForm(c);
      return sendMailgunMessage(services, { apiKeyHash, domain, form, ...(onBehalfOf ? { onBehalfOf } : {}) });
    }),
  );

  // MIME sending (the SDK's messages.create with `message`): not offered; the SMTP relay takes raw MIME.
  app.post(
    `/v3/${DOMAIN}/messages.mime`,
    mailgun(async () => ({
      status: 400,
      body: {
        message:
          'Sending MIME (messages.mime) is not supported by this service: use the SMTP relay for raw MIME messages, or send the fields to /v3/{domain}/messages',
      },
    })),
  );

  const notFound = mailgun(async () => ({
    status: 404,
    body: { message: 'Not Found: this service offers POST /v3/{domain}/messages only (docs/compat.md, "Mailgun")' },
  }));
  app.all(`/v3/${DOMAIN}`, notFound);
  app.all(`/v3/${DOMAIN}/*`, notFound);
}
