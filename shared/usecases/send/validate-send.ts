/**
 * A send's `validate: true` (docs/deliverability.md, "Validating at send time"), once the whole sending
 * policy has passed (./check-policy.ts: the account, the tenant, the sender, the sandbox and production
 * unlock, suppressions and opt-outs), so a send the policy refuses looks nothing up: then the bound on
 * the domains one request looks up (shared/domain/address-validation/lookup-bound.ts: 400), its limits
 * (./send-limits.ts: the 429 the transaction would answer, read first), the account's validation
 * allowance (each recipient counts, as on POST /validations: 429) and only then the recipients' domains
 * (../address-validation/refuse-undeliverable.ts: 422 for one that takes no mail).
 */
import { checkLookupBound, lookupDomains } from '../../domain/address-validation/lookup-bound';
import { refuseUndeliverableRecipients, type RecipientCheckDeps } from '../address-validation/refuse-undeliverable';
import { countValidatedAddresses, type ValidationAllowanceDeps } from '../address-validation/validation-allowance';
import type { ResolvedSendContext } from './resolved-send-context';
import { refuseOverLimit, type SendLimits } from './send-limits';
import type { SendDeps } from './send-deps';

export type ValidateSendDeps = RecipientCheckDeps & ValidationAllowanceDeps & Pick<SendDeps, 'usage' | 'dashboardUrl'>;

export async function validateSend(deps: ValidateSendDeps, facts: ResolvedSendContext, limits: SendLimits): Promise<void> {
  const recipients = facts.recipients.addresses;
  checkLookupBound(lookupDomains(recipients));
  await refuseOverLimit(deps, facts, limits, recipients.length);
  await countValidatedAddresses(deps, facts.principal, recipients.length);
  await refuseUndeliverableRecipients(deps, recipients);
}
