/**
 * The SMTP relay (submission, port 587 semantics) on smtp-server: STARTTLS, then AUTH PLAIN or LOGIN with
 * the fixed username and an SMTP credential, then messages that enter the send core exactly as POST
 * /emails does (`sendEmail`), as raw MIME delivered as written. One door among others: the policy is the
 * send core's (./session-policy.ts refuses early what it can), the replies come from one mapping of its
 * typed errors (./replies.ts), the message is read by ./message-to-send.ts. The hooks: ./relay-auth.ts,
 * ./relay-envelope.ts, ./relay-data.ts.
 *
 * Nothing is stored before the whole message has arrived: a client that drops in the middle of DATA
 * leaves nothing behind. Limits: SIZE (maxMessageBytes, 552 5.3.4), 50 recipients (452 4.5.3),
 * maxClients connections (421), idle time (421 after idleTimeoutMs), failed logins per client address and
 * per credential tried, counted in the table and shared by every relay task (./auth-throttle.ts: 421 4.7.0
 * and the connection closed).
 */
import type { SmtpAuthFailureRepository } from '../../adapters/store/smtp-auth-failures';
import { SES_MAX_MESSAGE_BYTES } from '../../domain/emails/attachments';
import type { AuthenticateDeps } from '../../usecases/access/authenticate';
import type { SendDeps } from '../../usecases/send/send-email';
import { AuthThrottle, DEFAULT_AUTH_THROTTLE, type AuthThrottleSettings } from './auth-throttle';
import { MemoryBudget } from './collect-message';
import { EnhancedCodeSmtpServer } from './enhanced-code-server';
import { baseServerOptions, DEFAULT_MAX_BUFFERED_BYTES, type SmtpListenerOptions } from './listener-options';
import { authenticateSession, credentialUses, type RelayAuthDeps } from './relay-auth';
import { receiveMessage, type RelayDataLimits } from './relay-data';
import { acceptRecipient, acceptSender } from './relay-envelope';
import { serverHandle, type SmtpServerHandle } from './server-handle';
import type { SessionPolicyDeps } from './session-policy';

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
  SessionPolicyDeps &
  RelayAuthDeps & {
    /** Failed logins, shared by every relay task (./auth-throttle.ts). */
    smtpAuthFailures: Pick<SmtpAuthFailureRepository, 'counts' | 'add'>;
  };

export type RelayServer = SmtpServerHandle;

/**
 * The relay's listener: its hooks are AUTH (./relay-auth.ts), MAIL FROM and RCPT TO (./relay-envelope.ts) and
 * DATA (./relay-data.ts), over what each session keeps (./relay-session.ts).
 */
export function createRelayServer(options: RelayOptions, deps: RelayDeps): RelayServer {
  const throttle = new AuthThrottle(options.authThrottle ?? DEFAULT_AUTH_THROTTLE, deps.smtpAuthFailures, () => deps.clock.now().getTime());
  const maxMessageBytes = options.maxMessageBytes ?? RELAY_MAX_MESSAGE_BYTES;
  const limits: RelayDataLimits = { maxMessageBytes, budget: new MemoryBudget(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES) };
  const touch = credentialUses(deps);

  const server = new EnhancedCodeSmtpServer({
    ...baseServerOptions(options, maxMessageBytes),
    banner: 'mailservice SMTP relay: STARTTLS, then AUTH as mailservice with an SMTP credential',
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false,
    authOptional: false,
    authRequiredMessage:
      'Authentication required: STARTTLS, then AUTH PLAIN or LOGIN as "mailservice" with an SMTP credential (svcsmtp_...).',
    onAuth: (auth, session, callback) => authenticateSession(deps, throttle, touch, auth, session, callback),
    onMailFrom: (address, session, callback) => acceptSender(deps, address, session, callback),
    onRcptTo: (address, session, callback) => acceptRecipient(deps, address, session, callback),
    onData: (stream, session, callback) => receiveMessage(deps, limits, stream, session, callback),
  });
  return serverHandle(server, 'smtp');
}
