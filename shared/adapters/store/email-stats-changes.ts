/**
 * What the day stats read of the table's stream (shared/usecases/reputation/aggregate-stats.ts): a write of an
 * email item is
 *   email_accepted    its INSERT;
 *   email_progressed  a later write, with the email before and after it (a MODIFY without the old image
 *                     cannot say what changed: nothing).
 * Every email counts for its account and the deployment (the reputation guard, docs/deliverability.md); an
 * email with a `tenant_id` (not NULL) for its tenant too. Removals and other items stand for nothing here.
 * An email whose account_id or created_at is not text, or whose tenant_id is neither text nor absent/NULL,
 * is skipped: it cannot be counted (stream-record.ts).
 */
import * as z from 'zod';
import type { EmailProgress, EmailStatsWrite } from '../../domain/tenants/stats';
import { parseImage, type StreamReader, type StreamWrite } from './stream-record';

const countedEmail = z.looseObject({ account_id: z.string(), tenant_id: z.string().nullish(), created_at: z.string() });

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
    bounce_category: text(image.bounce_category),
  };
}

function changesOf(write: StreamWrite): EmailStatsWrite[] {
  const after = write.newImage;
  if (write.eventName === 'REMOVE' || after?.type !== 'email') return [];
  const parsed = parseImage(countedEmail, after);
  const counted = { account_id: parsed.account_id, tenant_id: parsed.tenant_id ?? null, created_at: parsed.created_at };
  if (write.eventName === 'INSERT') return [{ kind: 'email_accepted', ...counted, email: progressOf(after) }];
  if (!write.oldImage) return [];
  return [{ kind: 'email_progressed', ...counted, before: progressOf(write.oldImage), after: progressOf(after) }];
}

/** The day stats' reader: an email it cannot count is skipped. */
export const emailStatsWrites: StreamReader<EmailStatsWrite> = { onMalformed: 'skip', changesOf };
