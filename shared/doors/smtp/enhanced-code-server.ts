/**
 * smtp-server adds an enhanced status code chosen from the reply code alone (550 -> 5.1.1 for a policy
 * refusal, 552 -> 5.2.2, ...). A reply whose text already starts with one (ours: ./replies.ts) is written
 * as it is; every other reply keeps the library's code. Used by the relay and the MX listener.
 */
import { SMTPServer } from 'smtp-server';
import { ENHANCED_PREFIX } from './replies';

export class EnhancedCodeSmtpServer extends SMTPServer {
  override connect(...args: Parameters<SMTPServer['connect']>): void {
    super.connect(...args);
    let newest: (typeof this.connections extends Set<infer C> ? C : never) | undefined;
    for (const connection of this.connections) newest = connection;
    if (!newest) return;
    const send = newest.send.bind(newest);
    newest.send = (code, data, context) => send(code, data, typeof data === 'string' && ENHANCED_PREFIX.test(data) ? false : context);
  }
}
