/** The operations of the api-keys group (API keys). */
import { createApiKeySchema } from '#shared/domain/api-keys/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { apiKeyCreatedSchema, apiKeySchema } from './schemas';
import { listOf, okSchema } from '#shared/doors/openapi/common-schemas';
import { page } from '#shared/doors/openapi/page-description';

export const apiKeyOps = section('api-keys', 'API keys', {
  createApiKey: {
    method: 'post',
    creates: { param: 'id', at: 'api_key.id' },
    path: '/api-keys',
    summary: 'Create an API key',
    description:
      "The secret is returned only here; only its SHA-256 hash is stored. Made only within the caller's reach: each scope must be covered by the caller's (403 insufficient_scope; absent: the caller's own), and a caller limited to sending domains gives a subset of its own (403 domain_not_allowed; absent: its own list). A key limited to a tenant cannot create keys.",
    auth: 'apiKey',
    scopes: ['mail:admin'],
    body: { schema: createApiKeySchema, example: { name: 'production sender', scopes: ['emails:send'], allowed_domains: ['acme.com'] } },
    responses: {
      201: {
        description: 'The key and its secret.',
        schema: apiKeyCreatedSchema,
        example: { api_key: ex.exampleApiKey, secret: 'svc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'domain_not_allowed'], 404: ['not_found'] },
  },
  listApiKeys: {
    method: 'get',
    path: '/api-keys',
    summary: 'List API keys',
    description: page('The keys (never secrets)'),
    auth: 'apiKey',
    scopes: ['account:read'],
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'A page of keys.',
        schema: listOf('api_keys', apiKeySchema),
        example: { api_keys: [ex.exampleApiKey], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  revokeApiKey: {
    method: 'delete',
    path: '/api-keys/{id}',
    summary: 'Revoke an API key',
    description:
      "The key stops working on the next request. Revoked only by a caller whose reach covers it: its scopes covered by the caller's, and its sending domains within the caller's (403 insufficient_scope otherwise: a mail:admin key cannot revoke a full key).",
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: { id: 'the key id (key_...)' },
    responses: { 200: { description: 'Revoked.', schema: okSchema, example: { ok: true } } },
    errors: { 403: ['forbidden', 'insufficient_scope'], 404: ['not_found'] },
  },
});
