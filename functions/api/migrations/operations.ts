/** The operations of the migrations group (Imports). */
import { listImportsQuerySchema, reportQuerySchema, startImportSchema } from '#shared/domain/imports/schemas';
import * as ex from '#shared/doors/openapi/examples';
import { section } from '#shared/doors/openapi/operation';
import { migrationEnvelopeSchema, migrationReportSchema, migrationSummarySchema } from './schemas';
import { listOf } from '#shared/doors/openapi/common-schemas';

// ---------------------------------------------------------------------------------------------------
// Imports

/** Reading imports: account:read, or the write scope of any resource an import writes. */
const IMPORT_READ = ['account:read', 'domains:write', 'webhooks:write', 'templates:write', 'suppressions:write'] as const;
const migrationParam = { id: 'the import id (mig_...)' };

export const migrationOps = section('migrations', 'Imports', {
  startImport: {
    method: 'post',
    creates: { param: 'id', at: 'migration.id' },
    path: '/migrations',
    summary: 'Import from SendGrid, Postmark or Mailgun (or continue)',
    description:
      'Imports domains, webhooks, templates and suppressions. One request works about 25 seconds: while `has_more` is true, repeat the same body with `cursor: next_cursor` (after `retry_after_seconds` when present). The provider key is used for the request only.',
    auth: 'apiKey',
    scopes: ['domains:write', 'webhooks:write', 'templates:write', 'suppressions:write'],
    scopesCheckedBy: 'the use case: the write scope of every selected resource (or mail:admin, full)',
    body: { schema: startImportSchema, example: ex.exampleMigrationRequest },
    responses: { 200: { description: 'The import report (a preview with dry_run).', schema: migrationEnvelopeSchema } },
    errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['conflict'], 429: ['rate_limited'], 502: ['upstream_error'] },
  },
  listImports: {
    method: 'get',
    path: '/migrations',
    summary: 'List imports',
    description: 'Kept imports (not previews), newest first, with their totals. `?limit` (1-100, default 20), `?cursor`.',
    auth: 'apiKey',
    scopes: [...IMPORT_READ],
    query: listImportsQuerySchema,
    responses: {
      200: {
        description: 'A page of imports.',
        schema: listOf('migrations', migrationSummarySchema),
        example: { migrations: [ex.exampleMigrationSummary], has_more: false, next_cursor: null },
      },
    },
    errors: { 403: ['forbidden'] },
  },
  getImport: {
    method: 'get',
    path: '/migrations/{id}',
    summary: 'Retrieve an import report',
    description: 'The full report, every request merged.',
    auth: 'apiKey',
    scopes: [...IMPORT_READ],
    pathParams: migrationParam,
    responses: { 200: { description: 'The report.', schema: migrationEnvelopeSchema } },
    errors: { 403: ['forbidden'] },
  },
  downloadImportReport: {
    method: 'get',
    path: '/migrations/{id}/report',
    summary: 'Download an import report (CSV or JSON)',
    auth: 'apiKey',
    scopes: [...IMPORT_READ],
    pathParams: migrationParam,
    query: reportQuerySchema,
    responses: {
      200: {
        description: 'CSV (default; `Content-Disposition: attachment`), or with `?format=json` the rows as JSON.',
        schema: migrationReportSchema,
        mediaType: 'text/csv',
        headers: ['contentDisposition'],
      },
    },
    errors: { 403: ['forbidden'] },
  },
});
