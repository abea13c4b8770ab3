/** The operations of the account group's Exports part (docs/exports.md). */
import { pageQuerySchema } from '#shared/doors/http/pagination';
import { section } from '#shared/doors/openapi/operation';
import { listOf } from '#shared/doors/openapi/common-schemas';
import { exportEnvelopeSchema, exportSummarySchema } from './export-schemas';

const exportParam = { id: 'the export id (exp_...)' };

export const exportOps = section('account', 'Exports', {
  startExport: {
    method: 'post',
    creates: { param: 'id', at: 'export.id' },
    path: '/exports',
    summary: 'Export the account',
    description:
      "Writes the account's emails, their events, domains, webhooks (never secrets), suppressions (also as CSV), templates, automations and received emails as NDJSON files to the bucket. Works about 20 seconds, then answers; GET /exports/{id} continues a running export until `completed`, then answers signed download links. One running export per account.",
    auth: 'apiKey',
    scopes: ['account:admin'],
    responses: {
      201: { description: 'The export: completed with its files, or running (poll GET /exports/{id}).', schema: exportEnvelopeSchema },
    },
    errors: { 403: ['forbidden'], 409: ['conflict'] },
  },
  listExports: {
    method: 'get',
    path: '/exports',
    summary: 'List exports',
    description:
      "The account's exports of the last 7 days, newest first, with their progress (no links: GET /exports/{id}). `?limit` (1-100, default 25), `?cursor`.",
    auth: 'apiKey',
    scopes: ['account:admin'],
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of exports.', schema: listOf('exports', exportSummarySchema) } },
    errors: { 403: ['forbidden'] },
  },
  getExport: {
    method: 'get',
    path: '/exports/{id}',
    summary: 'Retrieve (and continue) an export',
    description:
      'Progress per kind; a running export is worked on for about 20 seconds first (when no other request is). Once completed, every file with a download link valid 1 hour (a new one on each GET).',
    auth: 'apiKey',
    scopes: ['account:admin'],
    pathParams: exportParam,
    responses: { 200: { description: 'The export.', schema: exportEnvelopeSchema } },
    errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['conflict'] },
  },
});
