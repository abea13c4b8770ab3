/** The API keys group: POST /api-keys (secret shown once), GET /api-keys, DELETE /api-keys/{id}. */
import type { Hono } from 'hono';
import { toPublicApiKey } from '#shared/domain/api-keys/api-key';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { apiKeyOps } from './operations';
import type { AccessServices, Platform, TenantServices } from '#shared/services';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/usecases/access/api-keys';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type ApiKeysServices = Platform & AccessServices & TenantServices;

export function createApiKeysApp(services: ApiKeysServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app, services);

  route(apiKeyOps.createApiKey, async (c, { body }) => {
    const { apiKey, secret } = await createApiKey(services, c.get('principal'), body);
    return c.json({ api_key: toPublicApiKey(apiKey), secret }, 201);
  });

  route(apiKeyOps.listApiKeys, async (c, { query }) => {
    return c.json(listPage('api_keys', await listApiKeys(services, c.get('principal'), query), toPublicApiKey));
  });

  route(apiKeyOps.revokeApiKey, async (c, { params }) => {
    await revokeApiKey(services, c.get('principal'), params.id);
    return c.json({ ok: true });
  });

  return app;
}
