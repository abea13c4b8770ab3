/** The SMTP credentials group: POST /smtp-credentials (password shown once), GET /smtp-credentials, DELETE /smtp-credentials/{id}. */
import type { Hono } from 'hono';
import { toPublicSmtpCredential } from '#shared/domain/smtp-credentials/smtp-credential';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { smtpCredentialOps } from './operations';
import type { AccessServices, Platform, TenantServices } from '#shared/services';
import { createSmtpCredential, listSmtpCredentials, revokeSmtpCredential } from '#shared/usecases/access/smtp-credentials';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type SmtpCredentialsServices = Platform & AccessServices & TenantServices;

export function createSmtpCredentialsApp(services: SmtpCredentialsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app);

  route(smtpCredentialOps.createSmtpCredential, async (c, { body }) => {
    const { credential, password } = await createSmtpCredential(services, c.get('principal'), body);
    return c.json({ smtp_credential: toPublicSmtpCredential(credential), password }, 201);
  });

  route(smtpCredentialOps.listSmtpCredentials, async (c, { query }) => {
    return c.json(listPage('smtp_credentials', await listSmtpCredentials(services, c.get('principal'), query), toPublicSmtpCredential));
  });

  route(smtpCredentialOps.revokeSmtpCredential, async (c, { params }) => {
    await revokeSmtpCredential(services, c.get('principal'), params.id);
    return c.json({ ok: true });
  });

  return app;
}
