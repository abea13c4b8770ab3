/** The emails API group: POST /emails, GET /emails/{id}. */
import type { Hono } from 'hono';
import { sendRequestSchema, type SendRequest } from '../../../shared/domain/emails/send-request';
import { NotFoundError } from '../../../shared/domain/errors';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { jsonBody } from '../../../shared/http/validate';
import type { Services } from '../../../shared/services';
import { getEmail, sendEmail } from '../../../shared/usecases/send-email';

export function createEmailsApp(services: Services): Hono<ApiEnv> {
  const app = createApi(services);

  app.post('/emails', requireScope('emails:send'), async (c) => {
    const request = (await jsonBody(c, sendRequestSchema)) as SendRequest;
    return c.json(await sendEmail(services, c.get('principal'), request), 200);
  });

  app.get('/emails/:id', async (c) => {
    const email = await getEmail(services, c.get('principal'), c.req.param('id'));
    if (!email) throw new NotFoundError('Email', c.req.param('id'));
    return c.json({ email });
  });

  return app;
}
