/**
 * The send's `validate: true` (POST /emails and its batch; docs/deliverability.md, "Address validation"):
 * before a send is accepted, the domain of each recipient (to, cc, bcc) is looked up, and a send naming a
 * recipient whose domain takes no mail (no mail host, or a null MX) is refused with 422 validation_error
 * naming each such address. Only what proves an address undeliverable refuses: a DNS failure, a
 * disposable domain or a role address let the send through (they are `risky`, not `invalid`), and a
 * suppressed recipient keeps the send path's own rule (shared/usecases/send/check-policy.ts). The syntax
 * is the send schema's, already checked. Lookups are kept briefly per process (./mail-domains.ts).
 */
import { domainOf } from '../../domain/mail/address';
import { UndeliverableRecipientsError } from '../../domain/errors';
import { domainRefuses } from '../../domain/address-validation/verdict';
import { mapBounded } from '../../lib/concurrency';
import type { MailDomains } from './mail-domains';

export interface RecipientCheckDeps {
  mailDomains: Pick<MailDomains, 'check'>;
}

export async function refuseUndeliverableRecipients(deps: RecipientCheckDeps, recipients: readonly string[]): Promise<void> {
  const domains = [...new Set(recipients.map(domainOf))];
  const checks = await mapBounded(domains, 8, (domain) => deps.mailDomains.check(domain));
  const refusing = new Map(
    domains.flatMap((domain, i) => (domainRefuses(checks[i]!.result) ? [[domain, checks[i]!.result] as const] : [])),
  );
  if (refusing.size === 0) return;
  const refused = [...new Set(recipients)].flatMap((email) => {
    const result = refusing.get(domainOf(email));
    return result === undefined ? [] : [{ email, reason: result }];
  });
  throw new UndeliverableRecipientsError(refused);
}
