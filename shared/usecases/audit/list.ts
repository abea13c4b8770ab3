/**
 * Reading an account's audit log (GET /audit-log, the dashboard's audit page): newest first, a page at a
 * time, with the filters of shared/domain/audit/audit-query.ts. A key limited to a tenant is refused (the
 * log is the account's); the scope check is the route's (`full`).
 */
import { auditIdBounds, type AuditRecord } from '../../domain/audit/audit-record';
import type { AuditFilter } from '../../domain/audit/audit-query';
import { ForbiddenError, ValidationError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { AuditLogRepository } from '../../adapters/store/audit-log';
import type { Page } from '../../adapters/store/cursor';
import type { Principal } from '../access/principal';

export interface AuditReadDeps {
  auditLog: Pick<AuditLogRepository, 'list'>;
  clock: Clock;
}

export async function listAuditLog(
  deps: AuditReadDeps,
  principal: Principal,
  query: AuditFilter & { limit: number; cursor?: string },
): Promise<Page<AuditRecord>> {
  if (principal.credential.tenant !== null)
    throw new ForbiddenError("The audit log is the account's: a key limited to a tenant cannot read it.");
  const since = query.since === undefined ? undefined : Date.parse(query.since);
  const until = query.until === undefined ? undefined : Date.parse(query.until);
  if (since !== undefined && until !== undefined && since > until) {
    throw new ValidationError('since is after until.', { details: { fields: [{ field: 'since', message: 'must not be after until' }] } });
  }
  return deps.auditLog.list(
    principal.account.id,
    {
      actor: query.actor,
      action: query.action,
      low: since === undefined ? undefined : auditIdBounds(Math.max(0, since)).low,
      high: until === undefined ? undefined : auditIdBounds(Math.max(0, until)).high,
    },
    { limit: query.limit, cursor: query.cursor },
    deps.clock.now().getTime(),
  );
}
