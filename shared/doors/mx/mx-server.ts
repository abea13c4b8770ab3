/**
 * The inbound MX listener (port 25 semantics) on smtp-server: any sending server may connect, with
 * opportunistic STARTTLS and no AUTH; it accepts mail only for receiving domains (receive-only
 * subdomains of verified domains added with inbound_enabled), refusing every other recipient at RCPT
 * TO (550 5.7.1: no open relay).
 *
 * Nothing accepted is lost: at the final dot the message (with a Received trace field in front) is
 * written to the mail bucket, then one message per receiving account goes to the inbound queue, and
 * only then is 250 answered. While it is written, the sender is authenticated once for the message
 * (SPF, DKIM, DMARC: shared/doors/mx/check-authentication.ts, through the service's DNS resolvers, at most
 * AUTHENTICATION_TIMEOUT_MS, never failing the message: checks that could not run are `temperror`);
 * every queue message carries the result, for the inbound worker to record. A crash after the 250
 * leaves the message in S3 and in the queue, where the inbound worker picks it up. A failure of either
 * write answers 451 4.3.0 (try again later).
 *
 * Nothing refused is left behind: a marker (shared/adapters/store/inbound-raw-markers.ts) is written pending
 * beside the raw message (begun as DATA starts), before it is queued. When storing or queueing fails, the
 * listener discards what it stored before answering 451 (workers drop queue messages of a discarded raw
 * message); when it crashes in between, the reconciler discards it once the marker is
 * UNCLAIMED_RAW_BOUND_MS old and no worker claimed it (shared/usecases/inbound/discard-unqueued.ts). Either
 * way the sender had no 250 and sends the message again: nothing accepted is lost, and no copy of it stays
 * unrecorded.
 *
 * Limits: SIZE (maxMessageBytes, 552 5.3.4 at MAIL FROM or after DATA), 100 recipients (452 4.5.3), a
 * header block over 1 MB (552 5.3.4, nothing stored), maxClients connections (421), idle time (421),
 * message bytes held at once (451 4.3.1).
 *
 * The smtp-server hooks are named handlers of their own: RCPT TO ./mx-recipient.ts, DATA ./mx-data.ts,
 * which hands an accepted message to ./mx-store.ts; this factory only wires them to the settings.
 */
import type { SMTPServerSession } from 'smtp-server';
import { MemoryBudget } from '../smtp/collect-message';
import { EnhancedCodeSmtpServer } from '../smtp/enhanced-code-server';
import { baseServerOptions, DEFAULT_MAX_BUFFERED_BYTES, type SmtpListenerOptions } from '../smtp/listener-options';
import { serverHandle, type SmtpServerHandle } from '../smtp/server-handle';
import type { ReceivingDomains } from '../../usecases/inbound/receiving-domains';
import { AUTHENTICATION_TIMEOUT_MS } from './check-authentication';
import { receiveMessage, type DataLimits, type MessageStore } from './mx-data';
import { MX_MAX_MESSAGE_BYTES, UNCLAIMED_RAW_BOUND_MS } from './mx-limits';
import { acceptRecipient } from './mx-recipient';
import { releaseRaw, reserveRaw, storeMessage, type RawSlot, type StoreDeps, type StoreSettings } from './mx-store';
import type { MxTransaction } from './mx-transaction';

export { MX_MAX_HEADER_BYTES, MX_MAX_MESSAGE_BYTES, MX_MAX_RECIPIENTS, UNCLAIMED_RAW_BOUND_MS } from './mx-limits';

/** The listener's settings (shared/doors/smtp/listener-options.ts; SIZE defaults to MX_MAX_MESSAGE_BYTES). */
export interface MxOptions extends SmtpListenerOptions {
  /** The name in the greeting, the Received field and the authentication checks (the MX host). */
  hostname: string;
  /** The SPF/DKIM/DMARC checks' time limit (AUTHENTICATION_TIMEOUT_MS); after it the message is `temperror`. */
  authenticationTimeoutMs?: number;
  /** How long a stored raw message may stay unclaimed by a worker before the reconciler deletes it (UNCLAIMED_RAW_BOUND_MS). */
  unclaimedRawBoundMs?: number;
}

/** The receiving domains RCPT TO looks recipients up in, and what storing a message uses (./mx-store.ts). */
export interface MxDeps extends StoreDeps {
  receivingDomains: Pick<ReceivingDomains, 'forAddress'>;
}

export type MxServer = SmtpServerHandle;

export function createMxServer(options: MxOptions, deps: MxDeps): MxServer {
  const maxMessageBytes = options.maxMessageBytes ?? MX_MAX_MESSAGE_BYTES;
  const limits: DataLimits = { maxMessageBytes, budget: new MemoryBudget(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES) };
  const settings: StoreSettings = {
    hostname: options.hostname,
    authenticationTimeoutMs: options.authenticationTimeoutMs ?? AUTHENTICATION_TIMEOUT_MS,
    unclaimedRawBoundMs: options.unclaimedRawBoundMs ?? UNCLAIMED_RAW_BOUND_MS,
  };
  const store: MessageStore<RawSlot> = {
    reserve: () => reserveRaw(deps, settings),
    store: (message: Buffer, session: SMTPServerSession, transaction: MxTransaction, slot: RawSlot) =>
      storeMessage(deps, settings, message, session, transaction, slot),
    release: (slot) => releaseRaw(deps, slot),
  };

  const server = new EnhancedCodeSmtpServer({
    ...baseServerOptions(options, maxMessageBytes),
    banner: 'mailservice inbound MX',
    // Mail from other servers: no AUTH, STARTTLS offered but not required.
    authOptional: true,
    disabledCommands: ['AUTH'],
    onRcptTo: (address, session, callback) => acceptRecipient(deps.receivingDomains, address, session, callback),
    onData: (stream, session, callback) => receiveMessage(limits, store, stream, session, callback),
  });
  return serverHandle(server, 'mx');
}
