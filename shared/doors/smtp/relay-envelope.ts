/**
 * The relay's MAIL FROM and RCPT TO (./relay-server.ts): the send core's policy asked early
 * (./session-policy.ts), what MAIL FROM settled kept on the session for its transaction, and the
 * recipients RCPT TO cleared of the suppression lists remembered for the send at DATA.
 */
import type { SMTPServerSession } from 'smtp-server';
import { SmtpRefusal, smtpErrorOf } from './replies';
import { refusal, userOf } from './relay-session';
import { checkMailFrom, checkRcptTo, type SessionPolicyDeps } from './session-policy';

/** smtp-server's onMailFrom: 530 before AUTH; the sender settled for this transaction, or the policy's refusal. */
export function acceptSender(
  deps: SessionPolicyDeps,
  address: { address: string },
  session: SMTPServerSession,
  callback: (err?: Error | null) => void,
): void {
  const user = userOf(session);
  if (!user) {
    callback(smtpErrorOf(new SmtpRefusal(530, '5.7.0', 'Authentication required.')));
    return;
  }
  checkMailFrom(deps, user, address.address).then(
    (accepted) => {
      user.principal = accepted.principal;
      user.sender = { transaction: session.transaction, accepted, cleared: new Map() };
      callback();
    },
    (error: unknown) => callback(refusal('MAIL FROM', session, error)),
  );
}

/** smtp-server's onRcptTo: 503 before this transaction's MAIL FROM; the recipient cleared, or the policy's refusal. */
export function acceptRecipient(
  deps: SessionPolicyDeps,
  address: { address: string },
  session: SMTPServerSession,
  callback: (err?: Error | null) => void,
): void {
  const sender = userOf(session)?.sender;
  if (!sender || sender.transaction !== session.transaction) {
    callback(smtpErrorOf(new SmtpRefusal(503, '5.5.1', 'Send MAIL FROM first.')));
    return;
  }
  checkRcptTo(
    deps,
    sender.accepted,
    session.envelope.rcptTo.map((rcpt) => rcpt.address),
    address.address,
  ).then(
    () => {
      sender.cleared.set(address.address.toLowerCase(), Date.now());
      callback();
    },
    (error: unknown) => callback(refusal('RCPT TO', session, error)),
  );
}
