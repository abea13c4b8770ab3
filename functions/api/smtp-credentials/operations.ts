/** The operations of the smtp-credentials group (SMTP credentials). */
import { createSmtpCredentialSchema } from '#shared/domain/smtp-credentials/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { smtpCredentialCreatedSchema, smtpCredentialSchema } from './schemas';
import { listOf, okSchema } from '#shared/doors/openapi/common-schemas';
import { page } from '#shared/doors/openapi/page-description';

export const smtpCredentialOps = section('smtp-credentials', 'SMTP credentials', {
  createSmtpCredential: {
    method: 'post',
    creates: { param: 'id', at: 'smtp_credential.id' },
    path: '/smtp-credentials',
    summary: 'Create an SMTP credential',
    description:
      "The SMTP relay's password (the username is always the same literal), returned only here. It may only send; like a key it can be limited to a tenant and to sending domains, and is made only within the caller's reach: a caller limited to sending domains gives a subset of its own (403 domain_not_allowed; absent: its own list).",
    auth: 'apiKey',
    scopes: ['mail:admin'],
    body: { schema: createSmtpCredentialSchema, example: { name: 'wordpress', allowed_domains: ['acme.com'] } },
    responses: {
      201: {
        description: 'The credential and its password.',
        schema: smtpCredentialCreatedSchema,
        example: { smtp_credential: ex.exampleSmtpCredential, password: 'svcsmtp_AbCdEfGhIjKlMnOpQrStUvWxYz012345' },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled', 'domain_not_allowed'], 404: ['not_found'] },
  },
  listSmtpCredentials: {
    method: 'get',
    path: '/smtp-credentials',
    summary: 'List SMTP credentials',
    description: page('The credentials (never passwords)'),
    auth: 'apiKey',
    scopes: ['account:read'],
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of credentials.', schema: listOf('smtp_credentials', smtpCredentialSchema) } },
    errors: { 403: ['forbidden'] },
  },
  revokeSmtpCredential: {
    method: 'delete',
    path: '/smtp-credentials/{id}',
    summary: 'Revoke an SMTP credential',
    description:
      'Revoked at once: the relay checks the credential again for every message. Revoked only by a caller whose reach covers it: a caller limited to sending domains revokes only credentials limited within them (403 insufficient_scope otherwise).',
    auth: 'apiKey',
    scopes: ['mail:admin'],
    pathParams: { id: 'the credential id (smtp_...)' },
    responses: { 200: { description: 'Revoked.', schema: okSchema } },
    errors: { 403: ['forbidden', 'insufficient_scope'], 404: ['not_found'] },
  },
});
