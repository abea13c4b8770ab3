/**
 * What a send is decided on, as the send-context loader (./send-context-loader.ts) hands it over: the
 * store's SendContext (shared/adapters/store/send-context.ts) resolved. The caller is a principal, the tenant is
 * chosen and found, the sender is completed and its domain's claim known, the suppressions and opt-outs
 * are the right tenant's, the idempotency record is the request's. Everything the policy, idempotency and
 * accept steps need; nothing they must read again (but a legacy claim's completion: SenderFacts).
 */
import type { SendRequest } from '../../domain/emails/send-request';
import type { Mailbox } from '../../domain/mail/address';
import type { Category } from '../../domain/mail/category';
import type { IdempotencyRecord } from '../../adapters/store/idempotency';
import type { StoredTenant } from '../../adapters/store/tenants';
import type { Principal } from '../access/principal';
import type { SenderDomainFacts } from './policy';
import type { ClaimOwner } from './tenant-policy';

/** The sender, completed, and what is known of its domain. */
export interface SenderFacts {
  /** The sender: a bare local part completed with the tenant's default_from_domain. */
  from: Mailbox;
  /** Its domain name. */
  domain: string;
  /** Who owns the domain (its claim, as it counts for the tenant rules); null: the sandbox, or unclaimed. */
  owner: ClaimOwner | null;
  /**
   * The domain's send-time facts (account, status), null when nobody claimed it. A claim written before it
   * carried the status is completed from the domain item: one read, made only when the policy asks (a
   * replayed or earlier-refused send never does), at most once.
   */
  domainFacts(): Promise<SenderDomainFacts | null>;
}

/** The recipients, and who among them the send may not reach. */
export interface RecipientFacts {
  /** Bare, lower-cased, unique addresses (each counts as one email). */
  addresses: string[];
  /** On the account's or the tenant's suppression list, in request order. */
  suppressed: string[];
  /** Opted out of the send's category (non-transactional mail only), account-wide or for the tenant. */
  optedOut: string[];
}

export interface ResolvedSendContext {
  /** Who sends: a live key of a live account with scope emails:send (or the door's resolved caller). */
  principal: Principal;
  /** The request, its template (if any) rendered. */
  request: SendRequest;
  /** Its category (transactional unless the request or template says otherwise). */
  category: Category;
  /** The send's tenant as stored (named, the key's, or the from domain's owner); null: the account's own. */
  tenant: StoredTenant | null;
  sender: SenderFacts;
  recipients: RecipientFacts;
  /** The record under the request's Idempotency-Key (null: none yet); undefined when no key was given. */
  idempotency: IdempotencyRecord | null | undefined;
}
