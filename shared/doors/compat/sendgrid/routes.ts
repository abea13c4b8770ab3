/**
 * SendGrid v3 `POST /v3/mail/send` (docs/compat.md, "SendGrid"): the official `@sendgrid/mail` SDK works
 * against this service with only its base URL and key changed. Hono glue only: ./mail-send.ts decides,
 * ./errors.ts and ./answer.ts shape the answers.
 *
 * Answers in SendGrid's shapes, errors included (the compat app has no onError: every error is caught
 * here): 202 + X-Message-Id (200 in sandbox_mode), `{"errors": [...]}` otherwise. Other methods on
 * /v3/mail/send are a 405, and other `/v3/...` paths SendGrid's 404, except a path whose first segment
 * after /v3/ has a dot: that is Mailgun's `/v3/{domain}/...` (its door, mounted after this one).
 */
import type { Context, Hono } from 'hono';
import { logError } from '#shared/lib/log';
import type { ApiEnv } from '../../http/env';
import { readJson } from '../../http/request-validation';
import type { CompatServices } from '../services';
import { MESSAGE_ID_HEADER } from './answer';
import { methodNotAllowedAnswer, notFoundAnswer, sendgridError, type SendgridErrorAnswer } from './errors';
import { mailSend } from './mail-send';

export const MAIL_SEND_PATH = '/v3/mail/send';

function answerError(c: Context<ApiEnv>, answer: SendgridErrorAnswer): Response {
  for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
  return c.json(answer.body, answer.status);
}

/** Mailgun's paths under /v3/ start with a domain name, which has a dot; SendGrid's never do. */
export function isMailgunPath(path: string): boolean {
  const segment = path.split('/')[2] ?? '';
  return segment.includes('.');
}

export function mountSendgrid(app: Hono<ApiEnv>, services: CompatServices): void {
  app.post(MAIL_SEND_PATH, async (c) => {
    try {
      const outcome = await mailSend(services, c.req.header('authorization'), () => readJson(c));
      if (outcome.kind === 'validated') return c.body(null, 200);
      if (outcome.kind === 'accepted') return c.body(null, 202, { [MESSAGE_ID_HEADER]: outcome.messageId });
      return answerError(c, outcome.answer);
    } catch (error) {
      const answer = sendgridError(error);
      if (answer.status >= 500) logError('sendgrid mail/send failed', error, { request_id: c.get('requestId'), path: c.req.path });
      return answerError(c, answer);
    }
  });

  app.all('/v3/*', async (c, next) => {
    if (isMailgunPath(c.req.path)) return next();
    if (c.req.path === MAIL_SEND_PATH) return answerError(c, methodNotAllowedAnswer(c.req.method));
    return answerError(c, notFoundAnswer());
  });
}
