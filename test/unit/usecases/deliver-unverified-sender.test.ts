/**
 * SES refusing a send from one of our verified domains as "Email address is not verified" (SES re-checking
 * it; docs/domains.md): the send worker's use case leaves the attempt to SQS's redelivery until
 * UNVERIFIED_SENDER_GRACE_MS after the email was due, then fails it with SES's reason; every other
 * MessageRejected fails at once. SES's answers go through the real SesMailer (its classification of the
 * error) over an in-memory SES client; the store, events and keys are in-memory fakes.
 */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '#shared/adapters/aws/ses-mailer';
import type { Email } from '#shared/domain/emails/email';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import { MailerError } from '#shared/ports/mail';
import { deliverEmail, type DeliverEmailDeps } from '#shared/usecases/delivery/deliver-email';
import { UNVERIFIED_SENDER_GRACE_MS } from '#shared/usecases/send/unverified-sender';

const CREATED = Date.parse('2026-11-22T10:00:00.000Z');
const FROM = 'Acme <hello@acme.test>';
/** SES's words (https://docs.aws.amazon.com/ses/latest/dg/troubleshoot-error-messages.html), as the local SES answers them. */
const NOT_VERIFIED = 'Email address is not verified. The following identities failed the check in region US-EAST-1: ';
const sesError = (message: string) => Object.assign(new Error(message), { name: 'MessageRejected' });

/** The email as claimed: immediate (due when created) or scheduled for `scheduledAt`. */
function claimed(scheduledAt: number | null): Email {
  return {
    id: 'msg_1',
    account_id: 'acc_1',
    from: FROM,
    to: ['friend@example.org'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 's',
    status: 'queued',
    last_event: 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: {},
    scheduled_at: scheduledAt === null ? null : new Date(scheduledAt).toISOString(),
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: new Date(CREATED).toISOString(),
    tenant: null,
    provider_message_id: null,
  };
}

/** One attempt at `now` whose SendEmail SES refuses with `refusal`; what the use case did. */
async function attempt(refusal: Error, now: number, scheduledAt: number | null = null) {
  const email = claimed(scheduledAt);
  const writes: string[] = [];
  const failures: (string | undefined)[] = [];
  const events: ServiceEvent[] = [];
  const ses = {
    config: { region: async () => 'us-east-1' },
    send: async () => {
      writes.push('ses');
      throw refusal;
    },
  } as unknown as SESv2Client;
  const deps: DeliverEmailDeps = {
    emails: {
      claimForSend: async () => ({ kind: 'claimed', stored: { email, body: { inline: { text: 'hi' } }, internals: {} } }),
      recordSent: async () => {
        writes.push('recordSent');
        return null;
      },
      applyOutcome: async (_id, _account, outcome) => {
        writes.push(`applyOutcome ${outcome.status}`);
        failures.push(outcome.fields?.bounce_reason as string | undefined);
        return { kind: 'moved', email: { ...email, status: 'failed' } };
      },
      releaseLease: async () => void writes.push('releaseLease'),
    },
    events: { publish: async (batch) => void events.push(...batch) },
    accounts: { get: async () => null },
    tenants: { find: async () => null },
    suppressions: { findSuppressed: async () => [] },
    sendingDomains: {
      of: async () => ({
        kind: 'verified',
        domainId: 'dom_1',
        selector: 's1',
        tenantId: null,
        openTracking: false,
        clickTracking: false,
        requireTls: false,
        linkHost: null,
      }),
    },
    linkSigning: { urls: async () => ({ unsubscribeUrl: () => '', openUrl: () => '', clickUrl: () => '' }) },
    sandboxDomain: 'sandbox.test',
    blobs: { get: async () => Buffer.alloc(0) } as never,
    mailer: new SesMailer(ses, 'mailservice'),
    clock: { now: () => new Date(now) },
    leaseMs: 45_000,
  };
  const outcome = await deliverEmail(deps, email.id).then(
    (result) => ({ result }),
    (error: unknown) => ({ thrown: error }),
  );
  return { outcome, writes, failures, events };
}

describe('a send SES refuses because it does not count our sender verified', () => {
  const unverified = sesError(`${NOT_VERIFIED}hello@acme.test`);

  it('is left to SQS to deliver again within the grace after the email was due: the lease is given back, nothing failed or published', async () => {
    for (const now of [CREATED, CREATED + 60_000, CREATED + UNVERIFIED_SENDER_GRACE_MS - 1]) {
      const { outcome, writes, failures, events } = await attempt(unverified, now);
      expect(outcome).toEqual({ thrown: expect.any(MailerError) });
      expect((outcome as { thrown: MailerError }).thrown).toMatchObject({ permanent: false, senderNotVerified: true });
      expect(writes).toEqual(['ses', 'releaseLease']);
      expect(failures).toEqual([]);
      expect(events).toEqual([]);
    }
  });

  it("fails for good with SES's reason once the grace after the email was due has passed", async () => {
    const { outcome, writes, failures, events } = await attempt(unverified, CREATED + UNVERIFIED_SENDER_GRACE_MS);
    expect(outcome).toEqual({ result: 'failed' });
    expect(writes).toEqual(['ses', 'applyOutcome failed']);
    expect(failures).toEqual([`SES MessageRejected: ${NOT_VERIFIED}hello@acme.test`]);
    expect(events.map((event) => [event.type, event.data.email_id])).toEqual([['email.failed', 'msg_1']]);
  });

  it("counts the grace from a scheduled email's time, not from its creation", async () => {
    const scheduledAt = CREATED + 24 * 3_600_000;
    const waiting = await attempt(unverified, scheduledAt + UNVERIFIED_SENDER_GRACE_MS - 1, scheduledAt);
    expect(waiting.writes).toEqual(['ses', 'releaseLease']);
    const failed = await attempt(unverified, scheduledAt + UNVERIFIED_SENDER_GRACE_MS, scheduledAt);
    expect(failed.outcome).toEqual({ result: 'failed' });
  });

  it("is not SES's answer naming a recipient as well (sandbox): that, and every other MessageRejected, fails at once", async () => {
    for (const refusal of [
      sesError(`${NOT_VERIFIED}hello@acme.test, friend@example.org`),
      sesError('Message length is more than 40 MB.'),
      sesError("Illegal header 'Bcc'."),
    ]) {
      const { outcome, writes, failures, events } = await attempt(refusal, CREATED);
      expect(outcome).toEqual({ result: 'failed' });
      expect(writes).toEqual(['ses', 'applyOutcome failed']);
      expect(failures).toEqual([`SES MessageRejected: ${refusal.message}`]);
      expect(events.map((event) => event.type)).toEqual(['email.failed']);
    }
  });
});
