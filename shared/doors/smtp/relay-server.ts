/**
 * The SMTP relay (submission, port 587 semantics) on smtp-server: STARTTLS, then AUTH PLAIN or LOGIN with
 * the fixed username and an SMTP credential, then messages that enter the send core exactly as POST
 * /emails does (`sendEmail`), as raw MIME delivered as written. One door among others: the policy is the
 * send core's (./session-policy.ts refuses early what it can), the replies come from one mapping of its
 * typed errors (./replies.ts), the message is read by ./message-to-send.ts.
 *
 * Nothing is stored before the whole message has arrived: a client that drops in the middle of DATA
 * leaves nothing behind. Limits: SIZE (maxMessageBytes, 552 5.3.4), 50 recipients (452 4.5.3),
 * maxClients connections (421), idle time (421 after idleTimeoutMs), failed logins per client address and
 * per credential tried, counted in the table and shared by every relay task (./auth-throttle.ts: 421 4.7.0
 * and the connection closed).
 */
import type { SmtpAuthFailureRepository } from '../../adapters/store/smtp-auth-failures';
import type { SmtpCredentialRepository } from '../../adapters/store/smtp-credentials';
import { type SMTPServerAuthentication, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { SES_MAX_MESSAGE_BYTES } from '../../domain/emails/attachments';
import { AppError } from '../../domain/errors';
import { BoundedMap } from '../../lib/bounded-map';
import { logError, logInfo, logWarn } from '../../lib/log';
import { authenticateSmtp, smtpPasswordHash, type AuthenticateDeps } from '../../usecases/access/authenticate';
import type { Principal } from '../../usecases/access/principal';
import { sendEmail, type SendDeps } from '../../usecases/send/accept';
import { CLEARED_RECIPIENTS_MAX_AGE_MS, type ClearedRecipients } from '../../usecases/send/cleared-recipients';
import { AuthThrottle, DEFAULT_AUTH_THROTTLE, type AuthBlock, type AuthThrottleSettings } from './auth-throttle';
import { messageToSend } from './message-to-send';
import { collectMessage, MemoryBudget } from './collect-message';
import { EnhancedCodeSmtpServer } from './enhanced-code-server';
import { SmtpRefusal, replyFor, smtpErrorOf } from './replies';
import { baseServerOptions, DEFAULT_MAX_BUFFERED_BYTES, type SmtpListenerOptions } from './listener-options';
import { serverHandle, type SmtpServerHandle } from './server-handle';
import { checkMailFrom, checkRcptTo, type AcceptedSender, type SessionPolicyDeps } from './session-policy';

/** Room left under SES's limit for the fields the service adds (X-Service-Message-Id, Message-ID, Date, DKIM-Signature). */
const ADDED_FIELDS_ALLOWANCE = 16 * 1024;
/** The SIZE the relay advertises and enforces: SES's 40 MB less the service's additions. */
export const RELAY_MAX_MESSAGE_BYTES = SES_MAX_MESSAGE_BYTES - ADDED_FIELDS_ALLOWANCE;

/** The listener's settings (./listener-options.ts; SIZE defaults to RELAY_MAX_MESSAGE_BYTES), and the login throttle. */
export interface RelayOptions extends SmtpListenerOptions {
  authThrottle?: AuthThrottleSettings;
}

export type RelayDeps = SendDeps &
  AuthenticateDeps &
  SessionPolicyDeps & {
    /** Records each credential's last use (at most once a minute per credential and process). */
    smtpCredentials: Pick<SmtpCredentialRepository, 'touchLastUsed'>;
    /** Failed logins, shared by every relay task (./auth-throttle.ts). */
    smtpAuthFailures: Pick<SmtpAuthFailureRepository, 'counts' | 'add'>;
  };

export type RelayServer = SmtpServerHandle;

/** Who the session authenticated as: the principal and the password's hash (never the password). */
interface RelayUser {
  principal: Principal;
  secretHash: string;
  /**
   * What MAIL FROM settled, for the transaction it belongs to, and the recipients RCPT TO found on no
   * suppression list (lower-cased, with when: the send at DATA does not read them again).
   */
  sender?: { transaction: number; accepted: AcceptedSender; cleared: Map<string, number> };
}

/** How often a credential's last use is written (at most). */
const TOUCH_EVERY_MS = 60_000;

/** The session's login (smtp-server asks for AUTH before MAIL, RCPT and DATA; checked again all the same). */
const userOf = (session: SMTPServerSession): RelayUser | undefined => (session.user ? (session.user as RelayUser) : undefined);

export function createRelayServer(options: RelayOptions, deps: RelayDeps): RelayServer {
  const throttle = new AuthThrottle(options.authThrottle ?? DEFAULT_AUTH_THROTTLE, deps.smtpAuthFailures, () => deps.clock.now().getTime());
  const maxMessageBytes = options.maxMessageBytes ?? RELAY_MAX_MESSAGE_BYTES;
  const touched = new BoundedMap<string, number>(10_000);
  const budget = new MemoryBudget(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);

  const touch = (principal: Principal) => {
    const now = deps.clock.now();
    const last = touched.get(principal.credential.id);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    touched.set(principal.credential.id, now.getTime());
    deps.smtpCredentials.touchLastUsed(principal.account.id, principal.credential.id, now.toISOString()).catch((error) => logError('smtp: recording the credential use failed', error, { credential_id: principal.credential.id }));
  };

  const onAuth = (auth: SMTPServerAuthentication, session: SMTPServerSession, callback: (err: Error | null | undefined, response?: { user?: RelayUser }) => void) => {
    const address = session.remoteAddress;
    const username = auth.username ?? '';
    const password = auth.password ?? '';
    const attempt = throttle.attempt(address, username, password);
    const login = async (): Promise<{ user: RelayUser } | Error> => {
      const blocked = await throttle.blockedFor(attempt);
      if (blocked) return throttled(blocked);
      let principal: Principal;
      try {
        principal = await authenticateSmtp(deps, username, password);
      } catch (error) {
        if (!(error instanceof AppError && error.status === 401)) throw error;
        // Told only when counted below the limits (./auth-throttle.ts).
        const failure = await throttle.afterFailure(attempt);
        logWarn('smtp: authentication failed', { session: session.id, remote: address, counted: failure.counted, throttled: failure.block?.by ?? null });
        if (!failure.counted) return throttled(failure.block);
        return smtpErrorOf(failure.block ? new SmtpRefusal(421, '4.7.0', `${error.message} ${tooMany(failure.block)}`) : error);
      }
      const held = await throttle.afterSuccess(attempt);
      if (held) return throttled(held);
      touch(principal);
      logInfo('smtp: authenticated', { session: session.id, remote: address, account_id: principal.account.id, credential_id: principal.credential.id });
      return { user: { principal, secretHash: smtpPasswordHash(password) } };
    };
    login().then(
      (outcome) => (outcome instanceof Error ? callback(outcome) : callback(null, outcome)),
      (error: unknown) => {
        logError('smtp: authentication could not be checked', error, { session: session.id, remote: address });
        callback(smtpErrorOf(new SmtpRefusal(454, '4.7.0', 'Temporary authentication failure; try again later.')));
      },
    );
  };

  const onMailFrom = (address: { address: string }, session: SMTPServerSession, callback: (err?: Error | null) => void) => {
    const user = userOf(session);
    if (!user) return callback(smtpErrorOf(new SmtpRefusal(530, '5.7.0', 'Authentication required.')));
    checkMailFrom(deps, user, address.address).then(
      (accepted) => {
        user.principal = accepted.principal;
        user.sender = { transaction: session.transaction, accepted, cleared: new Map() };
        callback();
      },
      (error: unknown) => callback(refusal('MAIL FROM', session, error)),
    );
  };

  const onRcptTo = (address: { address: string }, session: SMTPServerSession, callback: (err?: Error | null) => void) => {
    const sender = userOf(session)?.sender;
    if (!sender || sender.transaction !== session.transaction) return callback(smtpErrorOf(new SmtpRefusal(503, '5.5.1', 'Send MAIL FROM first.')));
    checkRcptTo(deps, sender.accepted, session.envelope.rcptTo.map((rcpt) => rcpt.address), address.address).then(
      () => {
        sender.cleared.set(address.address.toLowerCase(), Date.now());
        callback();
      },
      (error: unknown) => callback(refusal('RCPT TO', session, error)),
    );
  };

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null, message?: string) => void) => {
    collectMessage(stream, { maxBytes: maxMessageBytes, budget }, (collected) => {
      if (collected.outcome === 'too_large') {
        return callback(refusal('DATA', session, new AppError(413, 'payload_too_large', `The message is larger than ${maxMessageBytes} bytes, the relay's limit (SES's 40 MB less room for the fields the service adds).`)));
      }
      if (collected.outcome === 'busy') return callback(refusal('DATA', session, new SmtpRefusal(451, '4.3.1', 'The relay is busy with other messages; nothing was sent. Try again shortly.')));
      acceptMessage(collected.message, session)
        .then(
          (reply) => callback(null, reply),
          (error: unknown) => callback(refusal('DATA', session, error)),
        )
        .finally(collected.release);
    });
  };

  const acceptMessage = async (received: Buffer, session: SMTPServerSession): Promise<string> => {
    const user = userOf(session);
    if (!user) throw new SmtpRefusal(530, '5.7.0', 'Authentication required.');
    const envelope = {
      mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
    };
    const message = await messageToSend(received, envelope);
    // The credential is checked again for this message, by its hash (within the hot lookups' bound); the
    // recipients RCPT TO just cleared are not looked up on the suppression lists again.
    const result = await sendEmail(deps, { apiKeyHash: user.secretHash, kind: 'smtp' }, message.request, {
      mime: { raw: message.raw },
      ...(message.idempotency ? { idempotency: message.idempotency } : {}),
      ...clearedFor(user, session),
    });
    logInfo('smtp: message accepted', { session: session.id, account_id: user.principal.account.id, email_id: result.id, status: result.status, bytes: received.length, stripped: message.stripped });
    return `2.0.0 Ok: queued as ${result.id}${result.status === 'scheduled' ? ` (scheduled for ${message.request.scheduled_at})` : ''}`;
  };

  const server = new EnhancedCodeSmtpServer({
    ...baseServerOptions(options, maxMessageBytes),
    banner: 'mailservice SMTP relay: STARTTLS, then AUTH as mailservice with an SMTP credential',
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false,
    authOptional: false,
    authRequiredMessage: 'Authentication required: STARTTLS, then AUTH PLAIN or LOGIN as "mailservice" with an SMTP credential (svcsmtp_...).',
    onAuth,
    onMailFrom,
    onRcptTo,
    onData,
  });
  return serverHandle(server, 'smtp');
}

/** The recipients this transaction's RCPT TO cleared lately, for the send (none for another transaction). */
function clearedFor(user: RelayUser, session: SMTPServerSession): { clearedRecipients?: ClearedRecipients } {
  const sender = user.sender;
  if (!sender || sender.transaction !== session.transaction) return {};
  const since = Date.now() - CLEARED_RECIPIENTS_MAX_AGE_MS;
  const addresses = [...sender.cleared].filter(([, at]) => at >= since).map(([address]) => address);
  return addresses.length ? { clearedRecipients: { tenantId: sender.accepted.tenantId, addresses } } : {};
}

function tooMany(block: AuthBlock): string {
  return `Too many failed logins ${block.by === 'address' ? 'from this address' : 'with this password'}; try again in ${block.waitSeconds} s.`;
}

/** 421 4.7.0: a limit holds the attempt (its result is not told). */
function throttled(block: AuthBlock): Error {
  return smtpErrorOf(new SmtpRefusal(421, '4.7.0', tooMany(block)));
}

/** The reply for a refusal, logged (internal errors with their cause, never shown to the client). */
function refusal(stage: string, session: SMTPServerSession, error: unknown): Error {
  const reply = replyFor(error);
  if (!(error instanceof AppError || error instanceof SmtpRefusal)) logError(`smtp: ${stage} failed`, error, { session: session.id });
  else logInfo('smtp: refused', { session: session.id, stage, code: reply.code, enhanced: reply.enhanced, reason: error instanceof AppError ? error.code : 'smtp' });
  return smtpErrorOf(error);
}
