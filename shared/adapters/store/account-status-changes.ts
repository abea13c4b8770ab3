/**
 * What account events read of the table's stream (shared/usecases/tenants/publish-tenant-events.ts): a MODIFY of
 * an account item that moved its status is
 *   account_paused    to `paused` (the reputation brake, or an operator);
 *   account_resumed   from `paused` to `active` (an operator's resume; an account item without a status is active).
 * Other writes stand for nothing; a moved account whose fields are not an account's is skipped
 * (stream-record.ts). `statusChanges` is the tenant-events worker's reader: these and the tenants' (one
 * stream consumer for both: ./tenant-status-changes.ts).
 */
import { accountSchema } from '../../domain/accounts/account';
import type { AccountEventFields } from '../../domain/webhooks/account-event-data';
import { parseImage, type StreamReader, type StreamWrite } from './stream-record';
import { tenantStatusChanges, type TenantStatusChange } from './tenant-status-changes';

export type AccountStatusChange = { kind: 'account_paused' | 'account_resumed'; account: AccountEventFields };

const changedAccount = accountSchema.pick({
  id: true,
  status: true,
  paused_reason: true,
  paused_at: true,
  pause_source: true,
  pause_figures: true,
  updated_at: true,
});

const statusOf = (image: Record<string, unknown>) => (image.status === 'paused' ? 'paused' : 'active');

function accountChangesOf(write: StreamWrite): AccountStatusChange[] {
  const { newImage: after, oldImage: before } = write;
  if (write.eventName !== 'MODIFY' || !after || !before || after.type !== 'account') return [];
  if (statusOf(after) === statusOf(before)) return [];
  return [{ kind: statusOf(after) === 'paused' ? 'account_paused' : 'account_resumed', account: parseImage(changedAccount, after) }];
}

export const accountStatusChanges: StreamReader<AccountStatusChange> = { onMalformed: 'skip', changesOf: accountChangesOf };

/** The tenant-events worker's reader: tenant and account status changes. */
export const statusChanges: StreamReader<TenantStatusChange | AccountStatusChange> = {
  onMalformed: 'skip',
  changesOf: (write) => [...tenantStatusChanges.changesOf(write), ...accountChangesOf(write)],
};
