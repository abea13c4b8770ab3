/**
 * The send worker's use case: claim a queued email, compose its MIME (or take the raw message the SMTP
 * relay stored, as written), hand it to the provider (SES) with the configuration set, record the
 * outcome, and drop a redacted email's content once SES has it (./drop-content.ts). Safe under SQS redelivery: the claim is a conditional write with a lease, so one email is sent
 * once while its first attempt is alive.
 *
 * A scheduled email meets its account's and tenant's rules again when it fires (a read each, only for such
 * emails): account paused; tenant paused, deleted, or transactional_only against a non-transactional email, it is not sent
 * and fails for good with a bounce_reason saying why, publishing email.failed (as Postmark and Resend
 * report a send they refuse later). Its reserved usage is not given back (a failed send counts).
 *
 * A tenant's email sent from a domain that tenant owns goes through the tenant's SES tenant (`TenantName`
 * = the tenant id; docs/ses-tenants.md), so SES keeps its reputation apart. If SES refuses the tenant
 * context itself (the SES tenant or an association is missing: a domain returned or a tenant deleted
 * within the domain facts' cache time, or an association not yet repaired), the message is sent once more
 * without it, at the account's level, and the refusal is logged: the email is not lost to bookkeeping.
 */
import { domainOf, parseMailbox } from '../../domain/mail/address';
import type { EmailBody } from '../../domain/emails/email';
import { composeMime } from '../../domain/mime/compose';
import { completeRawMessage } from '../../domain/mime/raw-message';
import { canonicalLineEndings } from '../../domain/mime/line-endings';
import { logError } from '../../lib/log';
import { MailerError, type Mailer, type OutboundMessage } from '../../ports/mail';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { EventPublisher } from '../../ports/events';
import { emailEvent } from '../../domain/webhooks/email-event-data';
import type { EmailDelivery } from '../../adapters/store/emails/delivery';
import type { EmailOutcomes } from '../../adapters/store/emails/outcomes';
import type { StoredEmail } from '../../adapters/store/emails/stored-email';
import type { TenantRepository } from '../../adapters/store/tenants';
import type { AccountRepository } from '../../adapters/store/accounts';
import type { SuppressionRepository } from '../../adapters/store/suppressions';
import type { Email } from '../../domain/emails/email';
import { tenantFiringRefusal } from '../send/tenant-policy';
import type { SendingDomainFacts, SendingDomainFactsCache } from './sending-domain-facts';
import type { LinkSigning } from '../../domain/links/link-urls';
import {
  NO_TRACKING,
  needsLinks,
  unsubscribeHeaders,
  unsubscribeUrlOf,
  withManagedLinks,
  emailTracking,
  type TrackingSettings,
} from '../send/managed-links';
import { loadAttachments } from '../attachments/email-attachments';
import { unverifiedSenderGaveUp } from '../send/unverified-sender';
import { dropContentAfterSend } from './drop-content';
import { rawMessageBytes } from '../emails/raw-message-bytes';

export interface DeliverEmailDeps {
  /** `dropContent`: redacted emails (./drop-content.ts); the service's repository has it, test doubles of other rules may not. */
  emails: Pick<EmailDelivery, 'claimForSend' | 'recordSent' | 'releaseLease'> &
    Pick<EmailOutcomes, 'applyOutcome'> &
    Partial<Pick<EmailDelivery, 'dropContent'>>;
  events: EventPublisher;
  /** Scheduled emails: the account as of the firing (paused by the reputation brake or an operator: not sent). */
  accounts: Pick<AccountRepository, 'get'>;
  /** Scheduled tenant emails: the tenant as of the firing. */
  tenants: Pick<TenantRepository, 'find'>;
  /** Scheduled emails: the suppression lists as of the firing. */
  suppressions: Pick<SuppressionRepository, 'findSuppressed'>;
  sendingDomains: Pick<SendingDomainFactsCache, 'of'>;
  /** Signed links (managed unsubscribe, tracking); loaded only for an email that needs them. */
  linkSigning: LinkSigning;
  sandboxDomain: string;
  blobs: BlobStore;
  mailer: Pick<Mailer, 'send'>;
  clock: Clock;
  /** How long a claim holds; keep it at or below the send queue's visibility timeout. */
  leaseMs: number;
  /** Sends paced to SES's quota (./deliver-paced.ts): reserves the send's turn, or throws to hold the email. */
  paceSend?: (recipients: { to: string[]; cc: string[]; bcc: string[] }) => Promise<void>;
}

/**
 * `deferred`: another attempt holds the email, or held it and died (its lease and the grace for the
 * provider's events have not passed): this message is dropped and the reconciler re-drives the email
 * when its due time comes (docs/reliability.md), so a lease never sends a message to the DLQ.
 */
export type DeliverResult = 'sent' | 'skipped' | 'failed' | 'deferred' | 'republished';

const bare = (list: string[]) => list.map((entry) => parseMailbox(entry)?.email ?? entry);

/** The sending domain was removed or unverified after the email was accepted: the email fails for good. */
class SenderNoLongerVerified extends Error {}

/** A scheduled email its account or tenant may no longer send (paused, deleted, stream policy, suppressed): fails for good. */
class RefusedAtFiring extends Error {}

/**
 * A scheduled email meets the rules of its firing time again (as Postmark and Resend check a scheduled
 * send when it goes out): its account (paused: docs/deliverability.md, "Reputation guard"), its tenant
 * (paused, deleted, stream policy) and the suppression lists (account and tenant) of its recipients, one
 * read each, only for scheduled emails.
 */
async function checkAtFiring(
  deps: DeliverEmailDeps,
  email: Pick<Email, 'account_id' | 'scheduled_at' | 'to' | 'cc' | 'bcc'> & { tenant_id?: string | null; category?: string },
): Promise<void> {
  if (email.scheduled_at === null) return;
  const account = await deps.accounts.get(email.account_id);
  if (account?.status === 'paused')
    throw new RefusedAtFiring(
      `Not sent: the account was paused before the scheduled time${account.paused_reason ? `: ${account.paused_reason}` : '.'}`,
    );
  if (email.tenant_id) {
    const stored = await deps.tenants.find(email.account_id, email.tenant_id);
    const refusal = tenantFiringRefusal(stored && !stored.deleting ? stored.tenant : null, email.category);
    if (refusal) throw new RefusedAtFiring(refusal);
  }
  const recipients = [...new Set([...bare(email.to), ...bare(email.cc), ...bare(email.bcc)].map((address) => address.toLowerCase()))];
  const suppressed = await deps.suppressions.findSuppressed(email.account_id, email.tenant_id ?? null, recipients);
  if (suppressed.length)
    throw new RefusedAtFiring(
      `Not sent: ${suppressed.join(', ')} ${suppressed.length === 1 ? 'was' : 'were'} suppressed before the scheduled time.`,
    );
}

/** A scheduled tenant email whose sending domain was given to another tenant meanwhile is not sent. */
function checkDomainOwnerAtFiring(
  email: Pick<Email, 'from' | 'scheduled_at'> & { tenant_id?: string | null },
  domainTenantId: string | null,
): void {
  if (email.scheduled_at === null || !email.tenant_id || domainTenantId === null || domainTenantId === email.tenant_id) return;
  const domain = domainOf(parseMailbox(email.from)?.email ?? email.from);
  throw new RefusedAtFiring(`Not sent: the domain ${domain} belongs to another tenant at the scheduled time.`);
}

/**
 * The sending domain's facts: its id and DKIM selector (SES signs with its key), its tracking settings,
 * tls_mode and owning tenant; null for the sandbox domain. A domain no longer verified fails the email.
 */
async function sendingDomainOf(
  deps: DeliverEmailDeps,
  accountId: string,
  from: string,
): Promise<(SendingDomainFacts & { kind: 'verified' }) | null> {
  const fromDomain = domainOf(parseMailbox(from)?.email ?? from);
  if (fromDomain === deps.sandboxDomain) return null;
  const facts = await deps.sendingDomains.of(accountId, fromDomain);
  if (facts.kind === 'not_verified')
    throw new SenderNoLongerVerified(`The sending domain ${fromDomain} was removed or is no longer verified.`);
  return facts;
}

/** Sends through the SES tenant when given; a refusal of the tenant context itself is retried without it (logged). */
async function sendThroughProvider(
  deps: DeliverEmailDeps,
  message: OutboundMessage,
  emailId: string,
): Promise<{ providerMessageId: string; messageId?: string }> {
  try {
    return await deps.mailer.send(message);
  } catch (error) {
    if (!(message.tenantName && error instanceof MailerError && error.tenantRefused)) throw error;
    logError('SES refused the tenant context of a send; sending at the account level', error, {
      email_id: emailId,
      tenant_id: message.tenantName,
    });
    const { tenantName: _refused, ...withoutTenant } = message;
    return deps.mailer.send(withoutTenant);
  }
}

/**
 * The message to send: a raw MIME message (SMTP relay) as the client wrote it, with the fields the service
 * owes it (shared/domain/mime/raw-message.ts; managed unsubscribe adds its header fields, the body is never
 * rewritten but for its line endings); otherwise composed from the stored body and attachments, with the managed
 * links the email and its domain ask for (../send/managed-links.ts). Either way every line break is CRLF: the
 * composer writes CRLF only; a relayed message's bare LF or CR is made CRLF here
 * (../../domain/mime/line-endings.ts), as RFC 5322 wants.
 */
async function messageOf(
  deps: DeliverEmailDeps,
  { email, body, mime }: StoredEmail,
  tracking: TrackingSettings,
  linkHost: string | null,
): Promise<Buffer> {
  const urls = needsLinks(email, mime ? NO_TRACKING : tracking) ? await deps.linkSigning.urls(linkHost) : null;
  if (mime) {
    const from = parseMailbox(email.from);
    const raw = canonicalLineEndings(await rawMessageBytes(deps.blobs, mime));
    return completeRawMessage(raw, {
      emailId: email.id,
      messageIdDomain: from ? domainOf(from.email) : 'localhost',
      date: new Date(email.created_at),
      ...(urls && email.unsubscribe ? { fields: unsubscribeHeaders(unsubscribeUrlOf(email, urls)) } : {}),
    });
  }
  const inline: EmailBody = 'inline' in body ? body.inline : JSON.parse((await deps.blobs.get(body.blobKey)).toString('utf8'));
  const sent = urls ? withManagedLinks(email, inline, tracking, urls) : { email, body: inline };
  // CRLF by construction (the composer's newline and its bodies': ../../domain/mime/compose.ts): no second pass.
  return composeMime(sent.email, sent.body, await loadAttachments(deps.blobs, email.attachments ?? []));
}

/**
 * A redelivered message: an earlier attempt recorded the outcome but may have died before publishing its
 * event. Publishing again is harmless (same event id: delivered once).
 */
async function republishSettled(deps: DeliverEmailDeps, email: Email): Promise<void> {
  if (email.provider_message_id && email.sent_at) await deps.events.publish([emailEvent(email, 'email.sent', email.sent_at)]);
  else if (email.status === 'failed') await deps.events.publish([emailEvent(email, 'email.failed', email.bounced_at ?? email.created_at)]);
}

/** Checks the claimed email again, composes it and hands it to SES; records it sent and publishes email.sent. */
async function sendClaimed(deps: DeliverEmailDeps, claimed: StoredEmail): Promise<void> {
  const { email } = claimed;
  await checkAtFiring(deps, email);
  const domain = await sendingDomainOf(deps, email.account_id, email.from);
  const domainTenantId = domain?.tenantId ?? null;
  checkDomainOwnerAtFiring(email, domainTenantId);
  // Paced to SES's send rate before any composing (./pace.ts): a send whose turn is far is held here.
  await deps.paceSend?.({ to: bare(email.to), cc: bare(email.cc), bcc: bare(email.bcc) });
  // Not signed here: SES signs with the domain's own key and selector (BYODKIM, registered at verify) after
  // its own changes to the message, so the one DKIM signature covers what recipients get (docs/domains.md).
  // Its links under the domain's own link domain once that is active (docs/tracking.md, "Link domains").
  const raw = await messageOf(deps, claimed, domain ? emailTracking(claimed.email, domain) : NO_TRACKING, domain?.linkHost ?? null);
  // The SES tenant only for the tenant's own domain: an account-wide domain is not associated with it.
  const tenantName = email.tenant_id && domainTenantId === email.tenant_id ? email.tenant_id : undefined;
  const { providerMessageId, messageId } = await sendThroughProvider(
    deps,
    {
      raw,
      from: email.from,
      to: bare(email.to),
      cc: bare(email.cc),
      bcc: bare(email.bcc),
      tags: { email_id: email.id, account_id: email.account_id },
      ...(tenantName ? { tenantName } : {}),
      ...(domain?.requireTls ? { requireTls: true } : {}),
    },
    email.id,
  );
  // SES's answer is the fact "sent": recorded in one write, and email.sent published from it (SES's own
  // Send event is not subscribed: it would only repeat this).
  const at = deps.clock.now().toISOString();
  const recorded = await deps.emails.recordSent(email.id, providerMessageId, at, messageId);
  // A redacted email (store_content: false) loses its content now that SES has it, before email.sent
  // is built from the record: the event carries no subject either (./drop-content.ts, docs/redaction.md).
  const sent = recorded && (await dropContentAfterSend(deps, claimed, recorded, at));
  if (sent) await deps.events.publish([emailEvent(sent, 'email.sent', at)]);
}

/** A send that failed: recorded failed (and email.failed published) when it never will succeed, else released to be retried (the error thrown). */
async function failOrRelease(deps: DeliverEmailDeps, email: Email, error: unknown): Promise<'failed'> {
  const permanent = error instanceof MailerError && (error.permanent || unverifiedSenderGaveUp(error, email, deps.clock.now()));
  if (permanent || error instanceof SenderNoLongerVerified || error instanceof RefusedAtFiring) {
    const at = deps.clock.now().toISOString();
    const failed = await deps.emails.applyOutcome(email.id, email.account_id, {
      event: 'failed',
      status: 'failed',
      at,
      fields: { bounce_reason: (error as Error).message },
    });
    if (failed.kind !== 'missing') await deps.events.publish([emailEvent(failed.email, 'email.failed', at)]);
    return 'failed';
  }
  await deps.emails.releaseLease(email.id).catch(() => undefined);
  throw error;
}

/**
 * `scheduleVersion` is set when the message comes from a schedule firing: only the current version
 * of a still-scheduled email is sent.
 */
export async function deliverEmail(deps: DeliverEmailDeps, emailId: string, scheduleVersion?: number): Promise<DeliverResult> {
  const claim = await deps.emails.claimForSend(emailId, deps.clock.now().getTime(), deps.leaseMs, scheduleVersion);
  if (claim.kind === 'leased') return 'deferred';
  if (claim.kind === 'settled') {
    await republishSettled(deps, claim.email);
    return 'republished';
  }
  if (claim.kind === 'not_sendable') return 'skipped'; // unknown, cancelled, or a stale schedule
  try {
    await sendClaimed(deps, claim.stored);
    return 'sent';
  } catch (error) {
    return failOrRelease(deps, claim.stored.email, error);
  }
}
