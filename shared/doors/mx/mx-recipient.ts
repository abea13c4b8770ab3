/**
 * The MX listener's RCPT TO: a recipient is accepted only at a receiving domain (./mx-transaction.ts
 * keeps it for DATA); any other is refused 550 5.7.1 (no open relay), as is one a `refuse` route of its domain
 * matches (with the route's message: docs/inbound.md, "Routes"), the 101st of a transaction 452
 * 4.5.3, and a lookup that failed 451 4.3.0 (try again later).
 */
import type { SMTPServerSession } from 'smtp-server';
import { logError, logInfo } from '../../lib/log';
import { SmtpRefusal, smtpErrorOf } from '../smtp/replies';
import type { ReceivingDomains } from '../../usecases/inbound/receiving-domains';
import { MX_MAX_RECIPIENTS } from './mx-limits';
import { transactionOf } from './mx-transaction';
import { DEFAULT_REFUSAL, routeFor } from '../../domain/domains/inbound-routes';

export function acceptRecipient(
  receivingDomains: Pick<ReceivingDomains, 'forAddress'>,
  address: { address: string },
  session: SMTPServerSession,
  callback: (err?: Error | null) => void,
): void {
  const current = transactionOf(session) ?? { transaction: session.transaction, recipients: [] };
  if (current.recipients.length >= MX_MAX_RECIPIENTS) {
    callback(
      smtpErrorOf(
        new SmtpRefusal(
          452,
          '4.5.3',
          `Too many recipients: at most ${MX_MAX_RECIPIENTS} per message; send the rest in another transaction.`,
        ),
      ),
    );
    return;
  }
  receivingDomains.forAddress(address.address).then(
    (domain) => {
      if (!domain) {
        logInfo('mx: recipient refused', { session: session.id, remote: session.remoteAddress, rcpt: address.address });
        return callback(
          smtpErrorOf(new SmtpRefusal(550, '5.7.1', `Relay access denied: this server does not receive mail for ${address.address}.`)),
        );
      }
      const route = routeFor(domain.routes, address.address, session.envelope.mailFrom ? session.envelope.mailFrom.address : '');
      if (route?.action.type === 'refuse') {
        logInfo('mx: recipient refused by a route', { session: session.id, remote: session.remoteAddress, rcpt: address.address });
        return callback(smtpErrorOf(new SmtpRefusal(550, '5.7.1', route.action.message ?? DEFAULT_REFUSAL)));
      }
      current.recipients.push({ address: address.address, domain });
      session.user = current;
      callback();
    },
    (error: unknown) => {
      logError('mx: recipient lookup failed', error, { session: session.id });
      callback(smtpErrorOf(new SmtpRefusal(451, '4.3.0', 'Temporary local problem checking the recipient; try again later.')));
    },
  );
}
