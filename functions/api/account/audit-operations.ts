/** The operations of the account group's audit-log part (docs/audit-log.md). No operation writes or deletes a record. */
import { auditFilterSchema } from '#shared/domain/audit/audit-query';
import { pageQuerySchema } from '#shared/doors/http/pagination';
import { section } from '#shared/doors/openapi/operation';
import { listOf } from '#shared/doors/openapi/common-schemas';
import { auditRecordSchema } from './audit-schemas';

export const auditOps = section('account', 'Audit log', {
  listAuditLog: {
    method: 'get',
    path: '/audit-log',
    summary: 'List the audit log',
    description:
      'Every change made to the account by an API key, a dashboard user or the admin CLI, and every dashboard sign-in and failed sign-in, newest first: who, when, from where, what (ids and names only: never bodies or secrets). Kept 400 days. `?limit` (1-100, default 25), `?cursor`, `?actor` (a key id, user id or `operator`), `?action` (e.g. `createApiKey`), `?since` / `?until` (ISO 8601, inclusive). Keys with `account:admin` (or `full`) only.',
    auth: 'apiKey',
    scopes: ['account:admin'],
    query: pageQuerySchema.extend(auditFilterSchema.shape),
    responses: { 200: { description: 'A page of audit records.', schema: listOf('audit_records', auditRecordSchema) } },
    errors: { 403: ['forbidden'] },
  },
});
