/**
 * What the tenant stats read of the table's stream (shared/usecases/tenants/aggregate-tenant-stats.ts): a write of
 * a tenant's email (an email item with a `tenant_id`, not NULL) is
 *   tenant_email_accepted    its INSERT;
 *   tenant_email_progressed  a later write, with the email before and after it (a MODIFY without the old
 *                            image cannot say what changed: nothing).
 * Removals, other emails and other items stand for nothing here. A tenant's email whose tenant_id or
 * created_at is not text is skipped: it cannot be counted (stream-record.ts).
 */
import * as z from 'zod';
import type { EmailProgress, TenantEmailWrite } from '../../domain/tenants/stats';
import { parseImage, type StreamReader, type StreamWrite } from './stream-record';

const tenantEmail = z.looseObject({ tenant_id: z.string(), created_at: z.string() });

/** A milestone is reached once its attribute holds something (absent, NULL and '' are not yet). */
const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

function progressOf(image: Record<string, unknown>): EmailProgress {
  return {
    status: text(image.status),
    last_event: text(image.last_event),
    sent: isSet(image.sent_at),
    delivered: isSet(image.delivered_at),
    opened: isSet(image.opened_at),
    clicked: isSet(image.clicked_at),
    suppressed: isSet(image.suppressed_event),
  };
}

function changesOf(write: StreamWrite): TenantEmailWrite[] {
  const after = write.newImage;
  if (write.eventName === 'REMOVE' || after?.type !== 'email' || after.tenant_id == null) return [];
  const { tenant_id, created_at } = parseImage(tenantEmail, after);
  if (write.eventName === 'INSERT') return [{ kind: 'tenant_email_accepted', tenant_id, created_at, email: progressOf(after) }];
  if (!write.oldImage) return [];
  return [{ kind: 'tenant_email_progressed', tenant_id, created_at, before: progressOf(write.oldImage), after: progressOf(after) }];
}

/** The tenant stats' reader: a tenant's email it cannot count is skipped. */
export const tenantEmailWrites: StreamReader<TenantEmailWrite> = { onMalformed: 'skip', changesOf };
