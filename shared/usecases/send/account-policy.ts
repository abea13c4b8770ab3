/**
 * A paused account sends nothing (docs/deliverability.md, "Reputation guard"): every door's send (POST /emails,
 * each item of a batch, a resend, the SMTP relay, automation steps, the provider-compatible doors) meets this
 * rule in the send core's policy step, on the account the send-context loader read, as a paused tenant's send
 * is refused (./tenant-policy.ts). 403 account_paused naming the reason (and, for the brake's pause, its figures).
 */
import { accountPauseView, type Account } from '../../domain/accounts/account';
import { ForbiddenError } from '../../domain/errors';

export function checkAccountMaySend(account: Account): void {
  if (account.status !== 'paused') return;
  const pause = accountPauseView(account);
  const why = pause.paused_reason ? `: ${pause.paused_reason}` : '.';
  throw new ForbiddenError(`This account is paused; its emails are refused until it is resumed${why}`, 'account_paused', {
    details: { account_id: account.id, ...pause },
    hint:
      pause.pause_source === 'automated'
        ? "The reputation brake paused the account to keep the deployment under SES's bounce and complaint review rates; fix the list or content that bounced or drew complaints, then ask the operator to resume it."
        : 'An operator paused the account; ask them to resume it.',
  });
}
