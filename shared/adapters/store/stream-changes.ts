/**
 * Every change the table's stream carries to a use case, named after what happened (never after an
 * item type or an event name). Each stream worker decodes its records with one reader
 * (forEachStreamBatch, shared/doors/worker/for-each-stream-record.ts; the envelope: stream-record.ts) and its
 * use case switches on `kind`:
 *
 *   reader (module)                                   kinds                                          worker
 *   emailAcceptances (email-acceptance-changes.ts)    email_queued, email_scheduled,                 outbox-relay
 *                                                     email_suppressed, usage_deferred
 *   emailStatsWrites (email-stats-changes.ts)         email_accepted, email_progressed               tenant-stats
 *   statusChanges (account-status-changes.ts)         tenant_paused, tenant_resumed,                 tenant-events
 *                                                     account_paused, account_resumed
 *   runWrites (run-changes.ts)                        run_started, run_changed, run_step_pending     automation-outbox
 *
 * A record of no interest to a reader decodes to no change. Each worker imports its own reader, so a
 * bundle holds only what its reader reads (tenant-events holds no DynamoDB client).
 */
import type { EmailStatsWrite } from '../../domain/tenants/stats';
import type { AccountStatusChange } from './account-status-changes';
import type { EmailAcceptanceChange } from './email-acceptance-changes';
import type { RunChange } from './run-changes';
import type { TenantStatusChange } from './tenant-status-changes';

export type StreamChange = EmailAcceptanceChange | EmailStatsWrite | TenantStatusChange | AccountStatusChange | RunChange;

export type StreamChangeKind = StreamChange['kind'];
