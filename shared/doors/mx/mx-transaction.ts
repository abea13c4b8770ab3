/**
 * What RCPT TO settles for the MX listener's current SMTP transaction (./mx-recipient.ts), kept on the
 * session for DATA (./mx-data.ts): each accepted recipient with its receiving domain. A new transaction
 * on the same connection (RSET, or a second MAIL FROM) starts with none.
 */
import type { SMTPServerSession } from 'smtp-server';
import type { ReceivingDomain } from '../../usecases/inbound/receiving-domains';

export interface MxTransaction {
  transaction: number;
  recipients: { address: string; domain: ReceivingDomain }[];
}

/** The session's current transaction; undefined when RCPT TO accepted nobody in it yet. */
export const transactionOf = (session: SMTPServerSession): MxTransaction | undefined => {
  const state = session.user as MxTransaction | undefined;
  return state && state.transaction === session.transaction ? state : undefined;
};
