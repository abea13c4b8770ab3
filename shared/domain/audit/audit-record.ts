/**
 * One audit record (docs/audit-log.md): who changed what in an account, when, from where. Ids and names
 * only: never a request body, a field value or a secret. Written once, never updated
 * (shared/adapters/store/audit-log.ts); kept AUDIT_RETENTION_DAYS, longer than any content.
 */
import * as z from 'zod';
import { ulid } from '../ids';

/** How long a record is kept: longer than the longest content retention (730 days is opt-in; the default 90). */
export const AUDIT_RETENTION_DAYS = 400;

/** Who acted: an API key, a dashboard user (a failed sign-in of an unknown email: no id, the email's hash), or the operator's CLI. */
export const auditActorSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('api_key'), id: z.string(), name: z.string().nullable() }),
  z.strictObject({
    type: z.literal('user'),
    id: z.string().nullable(),
    email: z.string().nullable(),
    email_hash: z.string().nullable(),
    role: z.string().nullable(),
  }),
  z.strictObject({ type: z.literal('operator') }),
]);
export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditRecordSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  tenant_id: z.string().nullable(),
  action: z.string(),
  resource_ids: z.record(z.string(), z.string()),
  actor: auditActorSchema,
  status: z.number().int().nullable(),
  source_ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: z.string(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** What a recorder is given; the id and time are the recorder's. */
export type AuditEntry = Omit<AuditRecord, 'id' | 'created_at'>;

/** An audit record id: `aud_` and a ULID, so ids order by time. */
export const newAuditId = (nowMs: number): string => `aud_${ulid(nowMs)}`;

/** The smallest and largest audit id of a millisecond (for `since` / `until`). */
export function auditIdBounds(ms: number): { low: string; high: string } {
  const time = ulid(ms).slice(0, 10);
  return { low: `aud_${time}0000000000000000`, high: `aud_${time}ZZZZZZZZZZZZZZZZ` };
}

export const AUDIT_ID = /^aud_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The id an actor filter matches: a key's id, a user's id; the operator is `operator`. */
export function actorId(actor: AuditActor): string | null {
  return actor.type === 'operator' ? 'operator' : actor.id;
}

/** A user agent as recorded: at most 256 characters, no control characters. */
export function cleanUserAgent(value: string | undefined | null): string | null {
  if (!value) return null;
  return value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 256) || null;
}

/** The public shape of a record (GET /audit-log). */
export function toPublicAuditRecord(record: AuditRecord) {
  return { object: 'audit_record' as const, ...record };
}
