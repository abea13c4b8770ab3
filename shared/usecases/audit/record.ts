/**
 * Recording one audit entry (docs/audit-log.md): the id and time are given here, the record appended.
 * A failed write never fails the request that made the change (the change is done): it is an error log
 * line `audit record not written` with the entry's ids (never a body), which the alarms on error lines
 * count (shared/lib/log.ts).
 */
import { newAuditId, type AuditEntry, type AuditRecord } from '../../domain/audit/audit-record';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { AuditLogRepository } from '../../adapters/store/audit-log';

export interface AuditDeps {
  auditLog: Pick<AuditLogRepository, 'append'>;
  clock: Clock;
}

export const AUDIT_WRITE_FAILED = 'audit record not written';

/** Appends the entry; resolves to the record, or null when it could not be written (logged). */
export async function recordAudit(deps: AuditDeps, entry: AuditEntry): Promise<AuditRecord | null> {
  const now = deps.clock.now();
  const record: AuditRecord = { ...entry, id: newAuditId(now.getTime()), created_at: now.toISOString() };
  try {
    await deps.auditLog.append(record);
    return record;
  } catch (error) {
    logError(AUDIT_WRITE_FAILED, error, {
      audit_id: record.id,
      account_id: record.account_id,
      action: record.action,
      request_id: record.request_id,
      metric: 'AuditWriteFailures',
    });
    return null;
  }
}
