/**
 * The MX listener's DATA: the message read under its limits (shared/doors/smtp/collect-message.ts), refused
 * when it is over SIZE or its header block over MX_MAX_HEADER_BYTES (552 5.3.4), beyond the memory
 * budget (451 4.3.1) or without an accepted recipient (503 5.5.1); otherwise handed to `store`
 * (./mx-store.ts) and answered 250 with the ids it queued, or 451 4.3.0 when it failed. The stored
 * message's place is taken as DATA starts (its marker written while the message arrives) and given back
 * when the message is refused or the connection drops before the final dot.
 */
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { logError, logInfo } from '../../lib/log';
import { collectMessage, type MemoryBudget } from '../smtp/collect-message';
import { SmtpRefusal, smtpErrorOf } from '../smtp/replies';
import { MX_MAX_HEADER_BYTES } from './mx-limits';
import { transactionOf, type MxTransaction } from './mx-transaction';

export interface DataLimits {
  /** SIZE: larger messages are refused after the final dot. */
  maxMessageBytes: number;
  /** Message bytes held at once, all sessions together. */
  budget: MemoryBudget;
}

/** Where an accepted message goes (./mx-store.ts), and the place it takes as DATA starts. */
export interface MessageStore<Slot> {
  /** As DATA starts, for a transaction with recipients. */
  reserve(): Slot;
  /** Stores and queues an accepted message; resolves to the queued email ids (rejects: 451). */
  store(message: Buffer, session: SMTPServerSession, transaction: MxTransaction, slot: Slot): Promise<string[]>;
  /** The message was refused, or never arrived whole: the place given back. */
  release(slot: Slot): void;
}

export function receiveMessage<Slot>(
  limits: DataLimits,
  store: MessageStore<Slot>,
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  callback: (err?: Error | null, message?: string) => void,
): void {
  const slot = transactionOf(session)?.recipients.length ? store.reserve() : undefined;
  // The connection dropped before the final dot: no answer to give, the place given back.
  stream.on('close', () => {
    if (!stream.readableEnded && slot !== undefined) store.release(slot);
  });
  const refuse = (refusal: SmtpRefusal, bytes: number) => {
    if (slot !== undefined) store.release(slot);
    logInfo('mx: message refused', {
      session: session.id,
      remote: session.remoteAddress,
      code: refusal.code,
      reason: refusal.message,
      bytes,
    });
    callback(smtpErrorOf(refusal));
  };
  collectMessage(stream, { maxBytes: limits.maxMessageBytes, budget: limits.budget }, (collected) => {
    if (collected.outcome === 'too_large')
      return refuse(new SmtpRefusal(552, '5.3.4', `Message too large: at most ${limits.maxMessageBytes} bytes.`), collected.size);
    if (collected.outcome === 'busy')
      return refuse(new SmtpRefusal(451, '4.3.1', 'Busy receiving other messages; try again shortly.'), collected.size);
    const { message, release } = collected;
    const transaction = transactionOf(session);
    if (headerBlockLength(message) > MX_MAX_HEADER_BYTES) {
      release();
      return refuse(new SmtpRefusal(552, '5.3.4', `Message header too large: at most ${MX_MAX_HEADER_BYTES} bytes.`), message.length);
    }
    if (!transaction?.recipients.length || slot === undefined) {
      release();
      return refuse(new SmtpRefusal(503, '5.5.1', 'No valid recipients.'), message.length);
    }
    store
      .store(message, session, transaction, slot)
      .then(
        (ids) => callback(null, `2.0.0 Ok: queued as ${ids.join(' ')}`),
        (error: unknown) => {
          logError('mx: storing a message failed', error, { session: session.id });
          callback(smtpErrorOf(new SmtpRefusal(451, '4.3.0', 'Temporary local problem storing the message; try again later.')));
        },
      )
      .finally(release);
  });
}

/** Bytes up to the empty line that ends the header block (the whole message when there is none). */
function headerBlockLength(message: Buffer): number {
  const end = message.indexOf('\r\n\r\n');
  const bareEnd = message.indexOf('\n\n');
  const ends = [end, bareEnd].filter((position) => position >= 0);
  return ends.length ? Math.min(...ends) : message.length;
}
