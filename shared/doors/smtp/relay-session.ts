/**
 * What the relay keeps on an SMTP session (./relay-server.ts): who it authenticated as and what its MAIL
 * FROM settled, and the one way its hooks turn a refusal into a logged reply (./relay-auth.ts,
 * ./relay-envelope.ts, ./relay-data.ts).
 */
import type { SMTPServerSession } from 'smtp-server';
import { AppError } from '../../domain/errors';
import { logError, logInfo } from '../../lib/log';
import type { Principal } from '../../usecases/access/principal';
import { SmtpRefusal, replyFor, smtpErrorOf } from './replies';
import type { AcceptedSender } from './session-policy';

/** Who the session authenticated as: the principal and the password's hash (never the password). */
export interface RelayUser {
  principal: Principal;
  secretHash: string;
  /**
   * What MAIL FROM settled, for the transaction it belongs to, and the recipients RCPT TO found on no
   * suppression list (lower-cased, with when: the send at DATA does not read them again).
   */
  sender?: { transaction: number; accepted: AcceptedSender; cleared: Map<string, number> };
}

/** The session's login (smtp-server asks for AUTH before MAIL, RCPT and DATA; checked again all the same). */
export const userOf = (session: SMTPServerSession): RelayUser | undefined => (session.user ? (session.user as RelayUser) : undefined);

/** The reply for a refusal, logged (internal errors with their cause, never shown to the client). */
export function refusal(stage: string, session: SMTPServerSession, error: unknown): Error {
  const reply = replyFor(error);
  if (!(error instanceof AppError || error instanceof SmtpRefusal)) logError(`smtp: ${stage} failed`, error, { session: session.id });
  else
    logInfo('smtp: refused', {
      session: session.id,
      stage,
      code: reply.code,
      enhanced: reply.enhanced,
      reason: error instanceof AppError ? error.code : 'smtp',
    });
  return smtpErrorOf(error);
}
