/** The operations of the suppressions group (Suppressions). */
import {
  addSuppressionsSchema,
  checkSuppressionFilters,
  removeSuppressionSchema,
  suppressionFilterFields,
} from '#shared/domain/suppressions/schemas';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { suppressionListSchema, suppressionRemovedSchema, suppressionsAddedSchema } from './suppression-schemas';
import { page } from '#shared/doors/openapi/page-description';

export const suppressionOps = section('suppressions', 'Suppressions', {
  addSuppressions: {
    method: 'post',
    path: '/suppressions',
    summary: 'Suppress addresses (or record category opt-outs)',
    description:
      "`email` or `emails` (up to 1,000), on the account list or a tenant's (`tenant`). With `category` (product or newsletter) they are category opt-outs instead. 201 when at least one was added, 200 when all were there.",
    auth: 'apiKey',
    scopes: ['suppressions:write'],
    body: { schema: addSuppressionsSchema, example: { emails: ['bounced@example.com', 'gone@example.com'] } },
    responses: {
      201: {
        description: 'At least one address was added.',
        schema: suppressionsAddedSchema,
        example: { suppressions: [ex.exampleSuppression], created: ['bounced@example.com'], existing: [] },
      },
      200: { description: 'Every address was already on the list.', schema: suppressionsAddedSchema },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  listSuppressions: {
    method: 'get',
    path: '/suppressions',
    summary: 'List suppressions (or category opt-outs)',
    description: `${page('Suppressions')} Filters: \`email\` (with it, that address's category opt-outs too), \`reason\`, \`tenant\`; with \`category\`, the opt-outs of that category instead.`,
    auth: 'apiKey',
    scopes: ['suppressions:write', 'account:read'],
    query: pageQuerySchema.extend(suppressionFilterFields).superRefine(checkSuppressionFilters),
    responses: {
      200: {
        description: 'A page of suppressions or opt-outs.',
        schema: suppressionListSchema,
        example: { suppressions: [ex.exampleSuppression], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
  removeSuppression: {
    method: 'delete',
    path: '/suppressions',
    summary: 'Remove a suppression (or resubscribe to a category)',
    auth: 'apiKey',
    scopes: ['suppressions:write'],
    query: removeSuppressionSchema,
    responses: {
      200: { description: 'Removed.', schema: suppressionRemovedSchema, example: { ok: true, suppression: ex.exampleSuppression } },
    },
    errors: { 403: ['forbidden', 'tenants_not_enabled'], 404: ['not_found'] },
  },
});
