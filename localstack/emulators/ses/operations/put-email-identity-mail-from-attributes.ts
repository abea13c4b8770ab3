/**
 * PutEmailIdentityMailFromAttributes (PUT /v2/email/identities/{EmailIdentity}/mail-from): a MailFromDomain
 * must be a subdomain of the identity's domain; none (or empty) turns custom MAIL FROM off.
 */
import { badRequest } from '../errors';
import { BEHAVIORS, isDomainName, requireIdentity } from '../identities';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { EmailIdentity, OperationResult } from '../types';
import { optString } from '../validate';

export async function putEmailIdentityMailFromAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const identity = requireIdentity(state.store, request.params[0]!);
  const domain = optString(body.MailFromDomain, 'MailFromDomain') || undefined;
  const behavior = optString(body.BehaviorOnMxFailure, 'BehaviorOnMxFailure') ?? 'USE_DEFAULT_VALUE';
  if (!(BEHAVIORS as readonly string[]).includes(behavior)) throw badRequest(`BehaviorOnMxFailure must be one of ${BEHAVIORS.join(', ')}.`);
  let mailFrom: EmailIdentity['mailFrom'] = null;
  if (domain) {
    const parent = (identity.type === 'DOMAIN' ? identity.name : (identity.name.split('@')[1] ?? '')).toLowerCase();
    if (!isDomainName(domain) || !domain.toLowerCase().endsWith(`.${parent}`)) {
      throw badRequest(`MailFromDomain '${domain}' must be a subdomain of ${parent}.`);
    }
    // The same domain keeps its MX check's result; a new one is PENDING until DNS shows its MX record.
    const status = identity.mailFrom?.domain.toLowerCase() === domain.toLowerCase() ? (identity.mailFrom.status ?? 'PENDING') : 'PENDING';
    mailFrom = { domain, behaviorOnMxFailure: behavior as (typeof BEHAVIORS)[number], status };
  }
  state.store.putIdentity({ ...identity, mailFrom, updatedAt: new Date().toISOString() });
  return { body: {} };
}
