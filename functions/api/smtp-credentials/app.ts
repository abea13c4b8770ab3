/** The SMTP credentials group: POST /smtp-credentials (password shown once), GET /smtp-credentials, DELETE /smtp-credentials/{id}. */
import type { Hono } from 'hono';
import { createSmtpCredentialSchema } from '../../../shared/domain/smtp-credentials/schemas';
import { toPublicSmtpCredential as publicCredential } from '../../../shared/domain/smtp-credentials/smtp-credential';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { CoreServices } from '../../../shared/services';
import { createSmtpCredential, listSmtpCredentials, revokeSmtpCredential } from '../../../shared/usecases/smtp-credentials';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type SmtpCredentialsServices = CoreServices;

export function createSmtpCredentialsApp(services: SmtpCredentialsServices): Hono<ApiEnv> {
  const app = createApi(services);

  app.post('/smtp-credentials', requireScope('full'), async (c) => {
    const input = await jsonBody(c, createSmtpCredentialSchema);
    const { credential, password } = await createSmtpCredential(services, c.get('principal'), input);
    return c.json({ smtp_credential: publicCredential(credential), password }, 201);
  });

  app.get('/smtp-credentials', requireScope('account:read'), async (c) => {
    const page = parseWith(pageQuerySchema, c.req.query(), 'query');
    const result = await listSmtpCredentials(services, c.get('principal'), page);
    return c.json({ smtp_credentials: result.items.map(publicCredential), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.delete('/smtp-credentials/:id', requireScope('full'), async (c) => {
    await revokeSmtpCredential(services, c.get('principal'), c.req.param('id'));
    return c.json({ ok: true });
  });

  return app;
}
