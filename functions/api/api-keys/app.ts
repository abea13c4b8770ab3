/** The API keys group: POST /api-keys (secret shown once), GET /api-keys, DELETE /api-keys/{id}. */
import type { Hono } from 'hono';
import { createApiKeySchema } from '../../../shared/domain/api-keys/schemas';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { pageQuerySchema } from '../../../shared/http/pagination';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { CoreServices } from '../../../shared/services';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../shared/usecases/api-keys';
import { toPublicApiKey as publicKey } from '../../../shared/domain/api-keys/api-key';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type ApiKeysServices = CoreServices;

export function createApiKeysApp(services: ApiKeysServices): Hono<ApiEnv> {
  const app = createApi(services);

  app.post('/api-keys', requireScope('full'), async (c) => {
    const input = await jsonBody(c, createApiKeySchema);
    const { apiKey, secret } = await createApiKey(services, c.get('principal'), input);
    return c.json({ api_key: publicKey(apiKey), secret }, 201);
  });

  app.get('/api-keys', requireScope('account:read'), async (c) => {
    const page = parseWith(pageQuerySchema, c.req.query(), 'query');
    const result = await listApiKeys(services, c.get('principal'), page);
    return c.json({ api_keys: result.items.map(publicKey), has_more: result.next_cursor !== null, next_cursor: result.next_cursor });
  });

  app.delete('/api-keys/:id', requireScope('full'), async (c) => {
    await revokeApiKey(services, c.get('principal'), c.req.param('id'));
    return c.json({ ok: true });
  });

  return app;
}
