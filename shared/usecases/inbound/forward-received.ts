/**
 * A received message's `forward` routes (docs/inbound.md, "Forwarding"): after the message is recorded, each
 * forward route that holds for some of its recipients sends it on, once, through the send core (every rule of a
 * send applies: the domain verified, suppressions, the plan's limits), From the receiving domain's sending domain
 * (../../domain/inbound/forwarded-message.ts).
 *
 * - The email's id is derived from the received email and the route: a retried message (a crash, a duplicate
 *   delivery) sends under the same id, and the email's conditional put keeps it from being sent twice.
 * - Acting as: the account, through the domain's routes, sending only and only from that domain (kind
 *   `forward`); a route can be set only by a key that could send from it (./inbound-routes.ts).
 * - ARC-sealed (RFC 8617) with the sending domain's own DKIM key: instance 1, `cv=none`, its results the MX
 *   listener's checks of the original (../../domain/inbound/arc-results.ts), so a receiver that trusts the domain's
 *   seals can see the original passed; earlier sets are removed with the From they covered.
 * - Not forwarded (logged, the message stays recorded): mail judged spam (a failed DMARC, ...: forwarding it would
 *   spend the domain's reputation on it), a loop, a message SES would refuse, and a refusal of the send core (a
 *   4xx: suppressed target, plan limit, domain no longer verified). Anything else (5xx, the network) throws: the
 *   queue retries the message, whose other steps are idempotent.
 */
import type { Account } from '../../domain/accounts/account';
import { forwardsFor, type InboundRoute } from '../../domain/domains/inbound-routes';
import { sesContentRefusal } from '../../domain/mime/ses-content-check';
import type { ParsedSendRequest } from '../../domain/emails/send-request';
import { AppError } from '../../domain/errors';
import { deterministicId } from '../../domain/ids';
import { forwardedMessage } from '../../domain/inbound/forwarded-message';
import type { ParsedInbound } from '../../domain/inbound/parsed-message';
import type { SpamStatus } from '../../domain/inbound/spam';
import { parseMailbox } from '../../domain/mail/address';
import type { InboundMessage } from '../../domain/messages';
import { logInfo, logWarn } from '../../lib/log';
import type { Principal } from '../access/principal';
import { EmailExists } from '../send/idempotency';
import type { ArcSealer } from '../../ports/arc-seal';
import { arcAuthenticationResults } from '../../domain/inbound/arc-results';
import type { AuthenticationChecks } from '../../domain/inbound/authentication';
import { canonicalLineEndings } from '../../domain/mime/line-endings';
import type { ForwardSender } from './inbound-redaction';

export interface ForwardReceivedDeps {
  accounts: { get(accountId: string): Promise<Account | null> };
  /** Opens the domain's sealed DKIM key (the secret box, with the key's context). */
  openDkimKey(sealedKey: string, domainId: string): Promise<string>;
  /** The ARC set's three fields for a CRLF message (shared/adapters/received-mail/arc-sealer.ts). */
  arcSeal: ArcSealer;
  /** The authserv-id the seal's results name: the MX host (INBOUND_MX_HOST). */
  authservId: string;
  /** The send core with a raw message (shared/usecases/send/send-email.ts, SendOptions.mime), under `emailId`. */
  sendRaw(principal: Principal, request: ParsedSendRequest, raw: Buffer, emailId: string): Promise<{ id: string; status: string }>;
}

export type ForwardOutcome =
  | { route: number; outcome: 'sent'; email_id: string }
  | { route: number; outcome: 'already_sent'; email_id: string }
  | { route: number; outcome: 'not_forwarded'; reason: string };

export interface ForwardFacts {
  message: Pick<InboundMessage, 'email_id' | 'account_id' | 'domain_id' | 'rcpt_to' | 'mail_from' | 'received_at'>;
  raw: Buffer;
  parsed: Pick<ParsedInbound, 'from' | 'reply_to' | 'subject'>;
  routes: readonly InboundRoute[];
  /** The receiving domain: its name (what the forward is From) and DKIM key (what seals it). */
  sender: ForwardSender;
  /** The MX listener's checks of the original (the seal's results). */
  authentication: AuthenticationChecks;
  spamStatus: SpamStatus;
}

/** The forwarded email's id: one per received email and route, time-ordered by when the mail was received. */
export function forwardEmailId(receivedEmailId: string, routeIndex: number, receivedAt: string): string {
  return deterministicId('msg', Date.parse(receivedAt), `inbound forward ${receivedEmailId} ${routeIndex}`);
}

/** The account, sending through its domain's forward routes: that domain only, nothing but sending. */
function forwardPrincipal(account: Account, domainId: string, sendingDomain: string): Principal {
  return {
    account,
    credential: { kind: 'forward', id: domainId, scopes: ['emails:send'], tenant: null, allowed_domains: [sendingDomain] },
  };
}

/** The original's Reply-To addresses, or else its From: where a reply to the forward goes. */
function replyToOf(parsed: ForwardFacts['parsed']): string[] {
  const listed = parsed.reply_to.filter((address) => parseMailbox(address) !== null);
  if (listed.length) return listed;
  return parseMailbox(parsed.from) ? [parsed.from] : [];
}

export async function forwardReceived(deps: ForwardReceivedDeps, facts: ForwardFacts): Promise<ForwardOutcome[]> {
  const forwards = forwardsFor(facts.routes, facts.message.rcpt_to, facts.message.mail_from);
  if (forwards.length === 0) return [];
  const { message } = facts;
  const skip = (route: number, reason: string): ForwardOutcome => ({ route, outcome: 'not_forwarded', reason });
  if (facts.spamStatus === 'spam') return forwards.map((f) => skip(f.routeIndex, 'judged spam (see the received email’s authentication)'));
  const account = await deps.accounts.get(message.account_id);
  if (!account) return forwards.map((f) => skip(f.routeIndex, 'the account no longer exists'));
  const principal = forwardPrincipal(account, message.domain_id, facts.sender.domain);
  const originalFrom = parseMailbox(facts.parsed.from);
  const privateKeyPem = await deps.openDkimKey(facts.sender.sealedDkimKey, message.domain_id);
  const authResults = arcAuthenticationResults(deps.authservId, facts.authentication);
  // The same for every route: where a reply to the forward goes.
  const replyTo = replyToOf(facts.parsed);
  const outcomes: ForwardOutcome[] = [];
  for (const forward of forwards) {
    const built = forwardedMessage({
      raw: facts.raw,
      recipient: forward.recipients[0]!.toLowerCase(),
      sendingDomain: facts.sender.domain,
      to: forward.to,
      originalFrom,
    });
    if (built.kind === 'loop') {
      outcomes.push(skip(forward.routeIndex, built.reason));
      continue;
    }
    // Sealed over CRLF lines, as the message is handed to SES (the delivery makes every line break CRLF).
    const crlf = canonicalLineEndings(built.raw);
    const seal = await deps.arcSeal(crlf, {
      signingDomain: facts.sender.domain,
      selector: facts.sender.dkimSelector,
      privateKeyPem,
      authResults,
    });
    const sealed = Buffer.concat([seal, crlf]);
    const refusedBySes = sesContentRefusal(sealed);
    if (refusedBySes) {
      outcomes.push(skip(forward.routeIndex, `SES would refuse it: ${refusedBySes.message}`));
      continue;
    }
    const request: ParsedSendRequest = {
      from: built.from,
      to: [...forward.to],
      subject: facts.parsed.subject.replace(/[\r\n]+/g, ' ').slice(0, 998),
      ...(replyTo.length ? { reply_to: replyTo } : {}),
    };
    const emailId = forwardEmailId(message.email_id, forward.routeIndex, message.received_at);
    outcomes.push(await sendOnce(deps, principal, request, sealed, emailId, forward.routeIndex));
  }
  for (const outcome of outcomes) {
    const log = outcome.outcome === 'not_forwarded' ? logWarn : logInfo;
    log(`inbound: forward ${outcome.outcome}`, { email_id: message.email_id, account_id: message.account_id, ...outcome });
  }
  return outcomes;
}

async function sendOnce(
  deps: ForwardReceivedDeps,
  principal: Principal,
  request: ParsedSendRequest,
  raw: Buffer,
  emailId: string,
  route: number,
): Promise<ForwardOutcome> {
  try {
    const sent = await deps.sendRaw(principal, request, raw, emailId);
    return { route, outcome: 'sent', email_id: sent.id };
  } catch (error) {
    if (error instanceof EmailExists) return { route, outcome: 'already_sent', email_id: emailId };
    if (error instanceof AppError && error.status < 500)
      return { route, outcome: 'not_forwarded', reason: `${error.code}: ${error.message}` };
    throw error;
  }
}
