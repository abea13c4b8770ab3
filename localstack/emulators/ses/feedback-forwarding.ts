/**
 * Email feedback forwarding: SES mails every bounce and complaint to the sender as well, unless the
 * identity turned it off (and the send has another way to report them). The emulator puts that mail
 * into its local mailbox.
 *
 * Sources (docs/local-cloud/ses.md, "Feedback forwarding"):
 * - https://docs.aws.amazon.com/ses/latest/dg/monitor-sending-activity-using-notifications-email.html :
 *   "Email feedback forwarding is enabled by default."
 * - https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutEmailIdentityFeedbackAttributes.html :
 *   PUT /v2/email/identities/{EmailIdentity}/feedback {EmailForwardingEnabled}; notifications go to the
 *   Return-Path of the original message; with forwarding off, they are still mailed when no other
 *   mechanism (an event destination) reports them.
 * - https://docs.aws.amazon.com/ses/latest/dg/sending-authorization-identity-owner-tasks-notifications.html :
 *   to the Return-Path, or the Source address without one; also when the send does not use the
 *   configuration set that publishes the events.
 * - https://aws.amazon.com/blogs/ses/goodbye-blacklist-introducing-the-suppression-list/ : a
 *   suppression-list bounce is forwarded like any hard bounce, From MAILER-DAEMON@amazonses.com,
 *   Subject "Delivery Status Notification (Failure)".
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import { sesId } from './ids';
import { headerSectionEnd, parseAddressList } from './mime';
import { sendingIdentity } from './sending-identity';
import { BOUNCE_OF, type RecipientOutcome } from './simulator';
import type { SesStore } from './store';
import type { ConfigurationSet, MatchingEventType, StoredMessage } from './types';

/** Senders of the feedback mail: SES's bounce daemon, and the address SES forwards complaints from (the emulator's choice). */
export const FEEDBACK_BOUNCE_FROM = 'MAILER-DAEMON@amazonses.com';
export const FEEDBACK_COMPLAINT_FROM = 'complaints@email-abuse.amazonses.com';

type FeedbackKind = 'bounce' | 'complaint';

function kindOf(outcome: RecipientOutcome): FeedbackKind | undefined {
  if (BOUNCE_OF[outcome]) return 'bounce';
  if (outcome === 'complaint' || outcome === 'complaint-suppressed') return 'complaint';
  return undefined;
}

/** Whether an enabled event destination of the set reports this kind of feedback (SES's "another mechanism"). */
function publishes(configSet: ConfigurationSet | undefined, kind: FeedbackKind): boolean {
  const type: MatchingEventType = kind === 'bounce' ? 'BOUNCE' : 'COMPLAINT';
  return (configSet?.eventDestinations ?? []).some((d) => d.Enabled && d.MatchingEventTypes.includes(type));
}

export interface AcceptedSend {
  message: StoredMessage;
  /** The bare envelope sender (FromEmailAddress, else the From header). */
  sourceAddress: string;
  /** The Return-Path header of the message, as written, if any. */
  returnPath: string | undefined;
  configSet: ConfigurationSet | undefined;
  outcomes: ReadonlyMap<string, RecipientOutcome>;
  at: Date;
}

export class FeedbackForwarding {
  constructor(private readonly store: SesStore) {}

  /**
   * The feedback mail one accepted send owes, into the mailbox: one message per kind (bounces,
   * complaints) naming its recipients. None when the sender has no identity (SES would not have sent).
   */
  async forward(send: AcceptedSend): Promise<StoredMessage[]> {
    const identity = sendingIdentity(this.store, send.sourceAddress);
    if (!identity) return [];
    const enabled = identity.feedbackForwarding ?? true;
    const byKind = new Map<FeedbackKind, string[]>();
    for (const [recipient, outcome] of send.outcomes) {
      const kind = kindOf(outcome);
      if (!kind || (!enabled && publishes(send.configSet, kind))) continue;
      byKind.set(kind, [...(byKind.get(kind) ?? []), recipient]);
    }
    const to = (send.returnPath ? parseAddressList(send.returnPath)[0] : undefined) ?? send.sourceAddress;
    const added: StoredMessage[] = [];
    for (const [kind, recipients] of byKind) {
      const id = sesId(send.at.getTime());
      const subject =
        kind === 'bounce' ? 'Delivery Status Notification (Failure)' : `Complaint about your message: ${send.message.subject}`;
      const raw = await composeFeedback({ kind, id, to, subject, recipients, original: send.message, at: send.at });
      added.push(
        await this.store.addMessage({
          id,
          receivedAt: send.at.toISOString(),
          from: kind === 'bounce' ? FEEDBACK_BOUNCE_FROM : FEEDBACK_COMPLAINT_FROM,
          to: [to],
          subject,
          configurationSet: null,
          // No email_id tag: the service's per-email mailbox queries never see feedback mail.
          tags: {},
          tenantName: null,
          raw,
          outbox: [],
          eventMail: null,
        }),
      );
    }
    return added;
  }
}

interface FeedbackMessage {
  kind: FeedbackKind;
  id: string;
  to: string;
  subject: string;
  recipients: string[];
  original: StoredMessage;
  at: Date;
}

/** A multipart message: a readable text part, the per-recipient status, and the original's headers. */
function composeFeedback(m: FeedbackMessage): Promise<Buffer> {
  const text =
    m.kind === 'bounce'
      ? `An error occurred while trying to deliver the mail to the following recipients:\r\n${m.recipients.join('\r\n')}\r\n`
      : `A recipient of your message complained about it:\r\n${m.recipients.join('\r\n')}\r\n`;
  const status =
    m.kind === 'bounce'
      ? [
          `Reporting-MTA: dns; amazonses.com`,
          `Arrival-Date: ${new Date(m.original.receivedAt).toUTCString()}`,
          '',
          ...m.recipients.flatMap((r) => [`Final-Recipient: rfc822; ${r}`, 'Action: failed', 'Status: 5.0.0', '']),
        ].join('\r\n')
      : [`Feedback-Type: abuse`, `User-Agent: local-ses`, `Version: 1`, ...m.recipients.map((r) => `Original-Rcpt-To: ${r}`), ''].join(
          '\r\n',
        );
  const composer = new MailComposer({
    from: m.kind === 'bounce' ? FEEDBACK_BOUNCE_FROM : FEEDBACK_COMPLAINT_FROM,
    to: m.to,
    subject: m.subject,
    date: m.at,
    messageId: `<${m.id}@email.amazonses.com>`,
    text,
    attachments: [
      {
        contentType: m.kind === 'bounce' ? 'message/delivery-status' : 'message/feedback-report',
        content: status,
        contentDisposition: 'inline',
      },
      {
        contentType: 'text/rfc822-headers',
        content: m.original.raw.subarray(0, headerSectionEnd(m.original.raw)).toString('utf8'),
        contentDisposition: 'inline',
        contentTransferEncoding: 'quoted-printable',
      },
    ],
    newline: 'win',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}
