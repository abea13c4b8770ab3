/**
 * account.paused and account.resumed (ours; docs/deliverability.md, "Reputation guard"): the `data` of both,
 * and their ids. A pause or resume is one change of the account's status; its id derives from the account and
 * the time of that change, so the stream's redelivery yields the same event.
 */
import { accountPauseView, type Account } from '../accounts/account';
import { deterministicId } from '../ids';

export type AccountEventFields = Pick<
  Account,
  'id' | 'status' | 'paused_reason' | 'paused_at' | 'pause_source' | 'pause_figures' | 'updated_at'
>;

export function accountEventData(account: AccountEventFields): Record<string, unknown> {
  const pause = accountPauseView(account as Account);
  return { account_id: account.id, ...pause, changed_at: account.updated_at };
}

export function accountEventId(account: Pick<Account, 'id' | 'updated_at'>, type: 'account.paused' | 'account.resumed'): string {
  return deterministicId('evt', Date.parse(account.updated_at), `${account.id}:${type}:${account.updated_at}`);
}
