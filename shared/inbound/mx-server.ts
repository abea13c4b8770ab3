/**
 * The inbound MX listener (port 25 semantics) on smtp-server: any sending server may connect, with
 * opportunistic STARTTLS and no AUTH; it accepts mail only for receiving domains (receive-only
 * subdomains of verified domains added with inbound_enabled), refusing every other recipient at RCPT
 * TO (550 5.7.1: no open relay).
 *
 * Nothing accepted is lost: at the final dot the message (with a Received trace field in front) is
 * written to the mail bucket, then one message per receiving account goes to the inbound queue, and
 * only then is 250 answered. While it is written, the sender is authenticated once for the message
 * (SPF, DKIM, DMARC: shared/inbound/check-authentication.ts, through the service's DNS resolvers, at most
 * AUTHENTICATION_TIMEOUT_MS, never failing the message: checks that could not run are `temperror`);
 * every queue message carries the result, for the inbound worker to record. A crash after the 250
 * leaves the message in S3 and in the queue, where the inbound worker picks it up. A failure of either
 * write answers 451 4.3.0 (try again later).
 *
 * Nothing refused is left behind: a marker (shared/store/inbound-raw-markers.ts) is written pending
 * before the raw message is stored and marked queued before the 250. When storing or queueing fails,
 * the listener discards what it stored before answering 451 (workers drop queue messages of a discarded
 * raw message); when it crashes in between, the reconciler discards it once the marker is
 * UNQUEUED_RAW_BOUND_MS old (shared/usecases/inbound/discard-unqueued.ts). Either way the sender had
 * no 250 and sends the message again: nothing accepted is lost, and no copy of it stays unrecorded.
 *
 * Limits: SIZE (maxMessageBytes, 552 5.3.4 at MAIL FROM or after DATA), 100 recipients (452 4.5.3), a
 * header block over 1 MB (552 5.3.4, nothing stored), maxClients connections (421), idle time (421),
 * message bytes held at once (451 4.3.1).
 */
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { newId, ulid } from '../domain/ids';
import { inboundKeys } from '../domain/inbound/content-keys';
import type { CheckedInboundMessage } from '../domain/messages';
import { logError, logInfo } from '../log';
import type { BlobStore, Clock, InboundQueue } from '../ports';
import { collectMessage, MemoryBudget } from '../smtp/collect-message';
import { EnhancedCodeSmtpServer } from '../smtp/enhanced-code-server';
import { SmtpRefusal, smtpErrorOf } from '../smtp/replies';
import { baseServerOptions, DEFAULT_MAX_BUFFERED_BYTES, type SmtpListenerOptions } from '../smtp/listener-options';
import { serverHandle, type SmtpServerHandle } from '../smtp/server-handle';
import type { InboundRawMarkerRepository } from '../store/inbound-raw-markers';
import type { ReceivingDomain, ReceivingDomains } from '../usecases/inbound/receiving-domains';
import { AUTHENTICATION_TIMEOUT_MS, checkAuthentication, type RawResolve } from './check-authentication';
import { receivedField } from './received-field';

/** Largest message accepted: SES's and most providers' 40 MB. */
export const MX_MAX_MESSAGE_BYTES = 40 * 1024 * 1024;
/** Largest header block of the message (mailparser's own limit per MIME node). */
export const MX_MAX_HEADER_BYTES = 1024 * 1024;
/** Recipients per transaction (RFC 5321 asks servers to take at least 100). */
export const MX_MAX_RECIPIENTS = 100;
/**
 * How long a raw message may stay stored and not queued before the reconciler deletes it: far beyond
 * what storing (40 MB), the checks (10 s) and queueing take; a listener slower than this answers 451.
 */
export const UNQUEUED_RAW_BOUND_MS = 15 * 60_000;

/** The listener's settings (shared/smtp/listener-options.ts; SIZE defaults to MX_MAX_MESSAGE_BYTES). */
export interface MxOptions extends SmtpListenerOptions {
  /** The name in the greeting, the Received field and the authentication checks (the MX host). */
  hostname: string;
  /** The SPF/DKIM/DMARC checks' time limit (AUTHENTICATION_TIMEOUT_MS); after it the message is `temperror`. */
  authenticationTimeoutMs?: number;
  /** How long a stored raw message may stay unqueued before the reconciler deletes it (UNQUEUED_RAW_BOUND_MS). */
  unqueuedRawBoundMs?: number;
}

export interface MxDeps {
  receivingDomains: Pick<ReceivingDomains, 'forAddress'>;
  blobs: Pick<BlobStore, 'put' | 'delete'>;
  inboundQueue: InboundQueue;
  /** Whether each stored raw message was queued: nothing stored and refused stays in the bucket. */
  inboundRawMarkers: Pick<InboundRawMarkerRepository, 'begin' | 'markQueued' | 'discard' | 'forget'>;
  clock: Clock;
  /** The service's DNS resolvers (core.dns: DNS_RESOLVERS, the DNS emulator on the local cloud), for SPF, DKIM and DMARC. */
  dns: { resolve: RawResolve };
}

export type MxServer = SmtpServerHandle;

/** What RCPT TO settled for the current transaction: each accepted recipient's receiving domain. */
interface MxTransaction {
  transaction: number;
  recipients: { address: string; domain: ReceivingDomain }[];
}

const transactionOf = (session: SMTPServerSession): MxTransaction | undefined => {
  const state = session.user as MxTransaction | undefined;
  return state && state.transaction === session.transaction ? state : undefined;
};

export function createMxServer(options: MxOptions, deps: MxDeps): MxServer {
  const maxMessageBytes = options.maxMessageBytes ?? MX_MAX_MESSAGE_BYTES;
  const budget = new MemoryBudget(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);
  const authenticationTimeoutMs = options.authenticationTimeoutMs ?? AUTHENTICATION_TIMEOUT_MS;
  const unqueuedRawBoundMs = options.unqueuedRawBoundMs ?? UNQUEUED_RAW_BOUND_MS;

  const onRcptTo = (address: { address: string }, session: SMTPServerSession, callback: (err?: Error | null) => void) => {
    const current = transactionOf(session) ?? { transaction: session.transaction, recipients: [] };
    if (current.recipients.length >= MX_MAX_RECIPIENTS) return callback(smtpErrorOf(new SmtpRefusal(452, '4.5.3', `Too many recipients: at most ${MX_MAX_RECIPIENTS} per message; send the rest in another transaction.`)));
    deps.receivingDomains.forAddress(address.address).then(
      (domain) => {
        if (!domain) {
          logInfo('mx: recipient refused', { session: session.id, remote: session.remoteAddress, rcpt: address.address });
          return callback(smtpErrorOf(new SmtpRefusal(550, '5.7.1', `Relay access denied: this server does not receive mail for ${address.address}.`)));
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
  };

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null, message?: string) => void) => {
    const refuse = (refusal: SmtpRefusal, bytes: number) => {
      logInfo('mx: message refused', { session: session.id, remote: session.remoteAddress, code: refusal.code, reason: refusal.message, bytes });
      callback(smtpErrorOf(refusal));
    };
    collectMessage(stream, { maxBytes: maxMessageBytes, budget }, (collected) => {
      if (collected.outcome === 'too_large') return refuse(new SmtpRefusal(552, '5.3.4', `Message too large: at most ${maxMessageBytes} bytes.`), collected.size);
      if (collected.outcome === 'busy') return refuse(new SmtpRefusal(451, '4.3.1', 'Busy receiving other messages; try again shortly.'), collected.size);
      const { message, release } = collected;
      const transaction = transactionOf(session);
      if (headerBlockLength(message) > MX_MAX_HEADER_BYTES) {
        release();
        return refuse(new SmtpRefusal(552, '5.3.4', `Message header too large: at most ${MX_MAX_HEADER_BYTES} bytes.`), message.length);
      }
      if (!transaction?.recipients.length) {
        release();
        return refuse(new SmtpRefusal(503, '5.5.1', 'No valid recipients.'), message.length);
      }
      store(message, session, transaction)
        .then(
          (ids) => callback(null, `2.0.0 Ok: queued as ${ids.join(' ')}`),
          (error: unknown) => {
            logError('mx: storing a message failed', error, { session: session.id });
            callback(smtpErrorOf(new SmtpRefusal(451, '4.3.0', 'Temporary local problem storing the message; try again later.')));
          },
        )
        .finally(release);
    });
  };

  /**
   * The raw message to the bucket (after its pending marker) and, meanwhile, its authentication checks;
   * then one queue message per receiving account, each with the checks' result; then the marker queued:
   * the 250 waits for all of it. Any failure discards what was stored (the sender is answered 451).
   */
  const store = async (message: Buffer, session: SMTPServerSession, transaction: MxTransaction): Promise<string[]> => {
    const now = deps.clock.now();
    const rawId = ulid(now.getTime());
    const rawKey = inboundKeys.raw(rawId);
    const tls = Boolean(session.secure);
    const helo = session.hostNameAppearsAs ?? '';
    const remoteAddress = (session.remoteAddress ?? '').replace(/^::ffff:/, '');
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const trace = receivedField({ helo, remoteAddress, by: options.hostname, tls, id: rawId, recipients: transaction.recipients.map((r) => r.address), at: now });
    const raw = Buffer.concat([Buffer.from(trace, 'latin1'), message]);
    // Checked once per message, not per account; never throws. Both are awaited before answering, even
    // when the write failed, so the message's bytes are released (the memory budget) only once unused.
    const checksStarted = Date.now();
    const [stored, checked] = await Promise.allSettled([
      deps.inboundRawMarkers.begin(rawKey, now, now.getTime() + unqueuedRawBoundMs).then(() => deps.blobs.put(rawKey, raw, 'message/rfc822')),
      checkAuthentication({ raw, ip: remoteAddress, helo, mailFrom, mta: options.hostname }, (name, rrtype) => deps.dns.resolve(name, rrtype), { timeoutMs: authenticationTimeoutMs }).then((result) => ({ result, ms: Date.now() - checksStarted })),
    ]);
    if (stored.status === 'rejected') return abandon(rawKey, stored.reason);
    if (checked.status === 'rejected') return abandon(rawKey, checked.reason);
    const authentication = checked.value.result;
    const byAccount = new Map<string, { domain: ReceivingDomain; addresses: string[] }>();
    for (const { address, domain } of transaction.recipients) {
      const group = byAccount.get(domain.account_id) ?? { domain, addresses: [] };
      group.addresses.push(address);
      byAccount.set(domain.account_id, group);
    }
    const messages: CheckedInboundMessage[] = [...byAccount.values()].map(({ domain, addresses }) => ({
      email_id: newId('inb', now.getTime()),
      account_id: domain.account_id,
      domain_id: domain.domain_id,
      tenant_id: domain.tenant_id,
      tenant: domain.tenant,
      raw_key: rawKey,
      size: raw.length,
      received_at: now.toISOString(),
      mail_from: mailFrom,
      rcpt_to: addresses,
      remote_address: remoteAddress,
      helo,
      tls,
      authentication,
    }));
    try {
      await deps.inboundQueue.enqueueAll(messages);
      // Discarded meanwhile (this took longer than UNQUEUED_RAW_BOUND_MS): the workers drop these messages.
      if (!(await deps.inboundRawMarkers.markQueued(rawKey))) throw new Error(`the raw message was discarded before it was queued (more than ${unqueuedRawBoundMs} ms)`);
    } catch (error) {
      return abandon(rawKey, error);
    }
    logInfo('mx: message accepted', {
      session: session.id,
      remote: remoteAddress,
      tls,
      bytes: raw.length,
      raw_key: rawKey,
      email_ids: messages.map((m) => m.email_id),
      spf: authentication.spf.result,
      dkim: authentication.dkim.map((signature) => signature.result),
      dmarc: authentication.dmarc.result,
      authentication_ms: checked.value.ms,
    });
    return messages.map((m) => m.email_id);
  };

  /**
   * Not accepted: the stored raw message discarded and deleted (workers drop queue messages of it), then
   * `reason` thrown (451). A step that fails here is left to the reconciler (the marker stays due).
   */
  const abandon = async (rawKey: string, reason: unknown): Promise<never> => {
    try {
      if (await deps.inboundRawMarkers.discard(rawKey, deps.clock.now().getTime())) {
        await deps.blobs.delete(rawKey);
        await deps.inboundRawMarkers.forget(rawKey);
      }
    } catch (error) {
      logError('mx: discarding a message not accepted failed; the reconciler deletes it', error, { raw_key: rawKey });
    }
    throw reason;
  };

  const server = new EnhancedCodeSmtpServer({
    ...baseServerOptions(options, maxMessageBytes),
    banner: 'mailservice inbound MX',
    // Mail from other servers: no AUTH, STARTTLS offered but not required.
    authOptional: true,
    disabledCommands: ['AUTH'],
    onRcptTo,
    onData,
  });
  return serverHandle(server, 'mx');
}

/** Bytes up to the empty line that ends the header block (the whole message when there is none). */
function headerBlockLength(message: Buffer): number {
  const end = message.indexOf('\r\n\r\n');
  const bareEnd = message.indexOf('\n\n');
  const ends = [end, bareEnd].filter((position) => position >= 0);
  return ends.length ? Math.min(...ends) : message.length;
}
