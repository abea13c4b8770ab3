/**
 * The relay's DATA (./relay-server.ts): the whole message collected within SIZE and the relay's memory
 * budget (./collect-message.ts), then read (./message-to-send.ts) and sent through the send core
 * (`sendEmail`), as POST /emails does; nothing is stored before the whole message has arrived.
 */
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { AppError } from '../../domain/errors';
import { logInfo } from '../../lib/log';
import { sendEmail, type SendDeps } from '../../usecases/send/send-email';
import { CLEARED_RECIPIENTS_MAX_AGE_MS, type ClearedRecipients } from '../../usecases/send/cleared-recipients';
import { collectMessage, type MemoryBudget } from './collect-message';
import { messageToSend } from './message-to-send';
import { SmtpRefusal } from './replies';
import { refusal, userOf, type RelayUser } from './relay-session';

export interface RelayDataLimits {
  maxMessageBytes: number;
  budget: MemoryBudget;
}

/** smtp-server's onData: the message collected and sent, answered with its id; 552 over SIZE, 451 when the relay is busy. */
export function receiveMessage(
  deps: SendDeps,
  { maxMessageBytes, budget }: RelayDataLimits,
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  callback: (err?: Error | null, message?: string) => void,
): void {
  collectMessage(stream, { maxBytes: maxMessageBytes, budget }, (collected) => {
    if (collected.outcome === 'too_large') {
      return callback(
        refusal(
          'DATA',
          session,
          new AppError(
            413,
            'payload_too_large',
            `The message is larger than ${maxMessageBytes} bytes, the relay's limit (SES's 40 MB less room for the fields the service adds).`,
          ),
        ),
      );
    }
    if (collected.outcome === 'busy')
      return callback(
        refusal(
          'DATA',
          session,
          new SmtpRefusal(451, '4.3.1', 'The relay is busy with other messages; nothing was sent. Try again shortly.'),
        ),
      );
    acceptMessage(deps, collected.message, session)
      .then(
        (reply) => callback(null, reply),
        (error: unknown) => callback(refusal('DATA', session, error)),
      )
      .finally(collected.release);
  });
}

async function acceptMessage(deps: SendDeps, received: Buffer, session: SMTPServerSession): Promise<string> {
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
  logInfo('smtp: message accepted', {
    session: session.id,
    account_id: user.principal.account.id,
    email_id: result.id,
    status: result.status,
    bytes: received.length,
    stripped: message.stripped,
  });
  return `2.0.0 Ok: queued as ${result.id}${result.status === 'scheduled' ? ` (scheduled for ${message.request.scheduled_at})` : ''}`;
}

/** The recipients this transaction's RCPT TO cleared lately, for the send (none for another transaction). */
function clearedFor(user: RelayUser, session: SMTPServerSession): { clearedRecipients?: ClearedRecipients } {
  const sender = user.sender;
  if (!sender || sender.transaction !== session.transaction) return {};
  const since = Date.now() - CLEARED_RECIPIENTS_MAX_AGE_MS;
  const addresses = [...sender.cleared].filter(([, at]) => at >= since).map(([address]) => address);
  return addresses.length ? { clearedRecipients: { tenantId: sender.accepted.tenantId, addresses } } : {};
}
