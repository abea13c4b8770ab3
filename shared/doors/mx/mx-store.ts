/**
 * What the MX listener does with a message DATA accepted, before it answers 250. As DATA starts, the raw
 * message's place is taken and its pending marker written while the message arrives (`reserveRaw`). At the
 * final dot the raw message (with a Received trace field in front) is written to the mail bucket, and
 * meanwhile the sender authenticated once (SPF, DKIM, DMARC: ./check-authentication.ts); once both the
 * object and its marker are written, one queue message per receiving account, each with only its recipients
 * and the checks' result. Any failure discards what was stored (`abandonRaw`) and rejects, for the sender to
 * be answered 451; a message refused after DATA started gives its place back (`releaseRaw`).
 *
 * Round trips before the 250: the PUT (the marker's write beside it, begun as the message arrived), then the
 * queue's call: two, as a listener that only stores and queues needs. A listener that dies between the two
 * leaves a marker pending, which the reconciler deletes with its object once no queue message can name it
 * (UNCLAIMED_RAW_BOUND_MS); one that dies before its marker was written, an object the bucket's lifecycle
 * rule for raw messages expires (INBOUND_RAW_DAYS).
 */
import type { SMTPServerSession } from 'smtp-server';
import { newId, ulid } from '../../domain/ids';
import { inboundKeys } from '../../domain/inbound/content-keys';
import type { AuthenticationChecks } from '../../domain/inbound/authentication';
import type { CheckedInboundMessage } from '../../domain/messages';
import { logError, logInfo } from '../../lib/log';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { InboundQueue } from '../../ports/queues';
import type { InboundRawMarkerRepository } from '../../adapters/store/inbound-raw-markers';
import type { ReceivingDomain } from '../../usecases/inbound/receiving-domains';
import { checkAuthentication, type RawResolve } from './check-authentication';
import type { MxTransaction } from './mx-transaction';
import { receivedField } from '../../adapters/received-mail/received-field';

export interface StoreDeps {
  blobs: Pick<BlobStore, 'put' | 'delete'>;
  inboundQueue: InboundQueue;
  /** Whether each stored raw message was queued: nothing stored and refused stays in the bucket. */
  inboundRawMarkers: Pick<InboundRawMarkerRepository, 'begin' | 'discard' | 'discardUnstored' | 'forget'>;
  clock: Clock;
  /** The service's DNS resolvers (core.dns: DNS_RESOLVERS, the DNS emulator on the local cloud), for SPF, DKIM and DMARC. */
  dns: { resolve: RawResolve };
}

export interface StoreSettings {
  /** The MX host: in the Received field and the authentication checks. */
  hostname: string;
  /** The checks' time limit; after it the message is `temperror`. */
  authenticationTimeoutMs: number;
  /** How long a stored raw message may stay unclaimed by an inbound worker before the reconciler deletes it. */
  unclaimedRawBoundMs: number;
}

/** The raw message's place, taken as DATA starts: its id, its key, and its pending marker's write. */
export interface RawSlot {
  id: string;
  key: string;
  /** The pending marker written (awaited before the message is queued); rejects when it could not be. */
  begun: Promise<void>;
}

/** The SMTP envelope and connection, as the Received field, the checks and the queue messages carry them. */
interface Envelope {
  tls: boolean;
  helo: string;
  remoteAddress: string;
  mailFrom: string;
}

/** The raw message in the bucket: its key and size. */
interface StoredRaw {
  key: string;
  size: number;
}

/** As DATA starts (a transaction with recipients): the raw message's id and key, its pending marker written meanwhile. */
export function reserveRaw(
  deps: Pick<StoreDeps, 'inboundRawMarkers' | 'clock'>,
  settings: Pick<StoreSettings, 'unclaimedRawBoundMs'>,
): RawSlot {
  const now = deps.clock.now();
  const id = ulid(now.getTime());
  const key = inboundKeys.raw(id);
  const begun = deps.inboundRawMarkers.begin(key, now, now.getTime() + settings.unclaimedRawBoundMs);
  // Awaited by storeMessage or releaseRaw; handled here so a refusal before either is no unhandled rejection.
  begun.catch(() => undefined);
  return { id, key, begun };
}

/**
 * A message refused after DATA started, or a connection dropped before its final dot (nothing stored): its
 * marker discarded, in the background (left pending when that fails: the reconciler's, past its bound).
 */
export function releaseRaw(deps: Pick<StoreDeps, 'inboundRawMarkers'>, slot: RawSlot): void {
  slot.begun
    .then(
      () => deps.inboundRawMarkers.discardUnstored(slot.key),
      () => false, // no marker was written: nothing to give back
    )
    .catch((error: unknown) =>
      logError("mx: giving back a refused message's marker failed; the reconciler discards it", error, { raw_key: slot.key }),
    );
}

/** Stores, checks and queues one message; resolves to the queued email ids, one per receiving account. */
export async function storeMessage(
  deps: StoreDeps,
  settings: StoreSettings,
  message: Buffer,
  session: SMTPServerSession,
  transaction: MxTransaction,
  slot: RawSlot,
): Promise<string[]> {
  const now = deps.clock.now();
  const { id: rawId, key: rawKey } = slot;
  const envelope = envelopeOf(session);
  const trace = receivedField({
    helo: envelope.helo,
    remoteAddress: envelope.remoteAddress,
    by: settings.hostname,
    tls: envelope.tls,
    id: rawId,
    recipients: transaction.recipients.map((r) => r.address),
    at: now,
  });
  const raw = Buffer.concat([Buffer.from(trace, 'latin1'), message]);
  const checked = await storeWhileChecking(deps, settings, { slot, raw }, envelope);
  const messages = queueMessages(transaction, { key: rawKey, size: raw.length }, envelope, checked.authentication, now);
  try {
    await deps.inboundQueue.enqueueAll(messages);
  } catch (error) {
    return abandonRaw(deps, rawKey, error);
  }
  logInfo('mx: message accepted', {
    session: session.id,
    remote: envelope.remoteAddress,
    tls: envelope.tls,
    bytes: raw.length,
    raw_key: rawKey,
    email_ids: messages.map((m) => m.email_id),
    spf: checked.authentication.spf.result,
    dkim: checked.authentication.dkim.map((signature) => signature.result),
    dmarc: checked.authentication.dmarc.result,
    authentication_ms: checked.ms,
  });
  return messages.map((m) => m.email_id);
}

function envelopeOf(session: SMTPServerSession): Envelope {
  return {
    tls: Boolean(session.secure),
    helo: session.hostNameAppearsAs ?? '',
    remoteAddress: (session.remoteAddress ?? '').replace(/^::ffff:/, ''),
    mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
  };
}

/**
 * The raw message to the bucket (its pending marker written beside it) while its authentication is checked;
 * the checks' result and how long they took. Checked once per message, not per account; the checks never
 * throw. All are awaited even when a write failed, so the message's bytes are released (the memory budget)
 * only once unused; a failure abandons the stored message (an object stored without its marker is deleted
 * at once: no queue message can name it).
 */
async function storeWhileChecking(
  deps: StoreDeps,
  settings: StoreSettings,
  { slot, raw }: { slot: RawSlot; raw: Buffer },
  envelope: Envelope,
): Promise<{ authentication: AuthenticationChecks; ms: number }> {
  const rawKey = slot.key;
  const checksStarted = Date.now();
  const [marked, stored, checked] = await Promise.allSettled([
    slot.begun,
    deps.blobs.put(rawKey, raw, 'message/rfc822'),
    checkAuthentication(
      { raw, ip: envelope.remoteAddress, helo: envelope.helo, mailFrom: envelope.mailFrom, mta: settings.hostname },
      (name, rrtype) => deps.dns.resolve(name, rrtype),
      {
        timeoutMs: settings.authenticationTimeoutMs,
      },
    ).then((authentication) => ({ authentication, ms: Date.now() - checksStarted })),
  ]);
  if (marked.status === 'rejected') return abandonUnmarked(deps, rawKey, stored.status === 'fulfilled', marked.reason);
  if (stored.status === 'rejected') return abandonRaw(deps, rawKey, stored.reason);
  if (checked.status === 'rejected') return abandonRaw(deps, rawKey, checked.reason);
  return checked.value;
}

/** The marker could not be written: the object (when it was stored) deleted at once, then `reason` thrown (451). */
async function abandonUnmarked(deps: Pick<StoreDeps, 'blobs'>, rawKey: string, stored: boolean, reason: unknown): Promise<never> {
  if (stored)
    await deps.blobs.delete(rawKey).catch((error: unknown) => {
      logError('mx: deleting a message stored without its marker failed; the bucket expires it', error, { raw_key: rawKey });
    });
  throw reason;
}

/** One queue message per receiving account of the transaction, with only that account's recipients. */
function queueMessages(
  transaction: MxTransaction,
  raw: StoredRaw,
  envelope: Envelope,
  authentication: AuthenticationChecks,
  now: Date,
): CheckedInboundMessage[] {
  const byAccount = new Map<string, { domain: ReceivingDomain; addresses: string[] }>();
  for (const { address, domain } of transaction.recipients) {
    const group = byAccount.get(domain.account_id) ?? { domain, addresses: [] };
    group.addresses.push(address);
    byAccount.set(domain.account_id, group);
  }
  return [...byAccount.values()].map(({ domain, addresses }) => ({
    email_id: newId('inb', now.getTime()),
    account_id: domain.account_id,
    domain_id: domain.domain_id,
    tenant_id: domain.tenant_id,
    tenant: domain.tenant,
    raw_key: raw.key,
    size: raw.size,
    received_at: now.toISOString(),
    mail_from: envelope.mailFrom,
    rcpt_to: addresses,
    remote_address: envelope.remoteAddress,
    helo: envelope.helo,
    tls: envelope.tls,
    authentication,
  }));
}

/**
 * Not accepted: the stored raw message discarded and deleted (workers drop queue messages of it), then
 * `reason` thrown (451). A step that fails here is left to the reconciler (the marker stays due). A worker
 * that claimed it already (some of the queue's messages were taken) keeps it: the discard is refused.
 */
export async function abandonRaw(
  deps: Pick<StoreDeps, 'inboundRawMarkers' | 'blobs' | 'clock'>,
  rawKey: string,
  reason: unknown,
): Promise<never> {
  try {
    if (await deps.inboundRawMarkers.discard(rawKey, deps.clock.now().getTime())) {
      await deps.blobs.delete(rawKey);
      await deps.inboundRawMarkers.forget(rawKey);
    }
  } catch (error) {
    logError('mx: discarding a message not accepted failed; the reconciler deletes it', error, { raw_key: rawKey });
  }
  throw reason;
}
