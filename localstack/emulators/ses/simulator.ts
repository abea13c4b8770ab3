/**
 * The SES mailbox simulator, as a pure function: which outcome each envelope recipient gets, and
 * which events one message therefore produces (docs/local-cloud/ses.md, "Events").
 *
 * SES's own simulator addresses (https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html#send-email-simulator)
 * at simulator.amazonses.com behave as on AWS (a `+label` is ignored, case does not matter):
 * success@ and ooto@ are delivered, bounce@ bounces (Permanent/General), complaint@ is delivered then
 * complained about, suppressionlist@ is not sent (Permanent/OnAccountSuppressionList).
 *
 * The real simulator produces no other event type, so the emulator adds its own triggers at
 * LOCAL_EVENTS_DOMAIN (a `.localhost` name, never a real destination: RFC 6761), one per event type
 * and sub-type of the SES event contents
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html): see
 * LOCAL_TRIGGERS. On AWS those addresses simply fail; they are the emulator's, not SES's.
 *
 * Some triggers stand for a receiving server's refusal that SES reports as a General bounce: each names
 * the status and reply (`diagnosticCode`) real receivers give (REPLIES_OF), so the bounce taxonomy
 * (docs/deliverability.md, "Bounce categories") can be reached through the emulator. And an address at a
 * domain under `.invalid` (RFC 2606: reserved never to resolve) bounces as SES bounces a domain that does
 * not exist; SES bounces every such domain, the emulator knows only this one kind.
 *
 * The label `+early` on any recipient (either domain, ignored by SES) is the emulator's request for
 * out-of-order events: that recipient's outcome is published right after Send, before the others',
 * as SES publishes a suppression-list bounce before the Delivery of the other recipients.
 * Every other address is delivered.
 */

export const SIMULATOR_DOMAIN = 'simulator.amazonses.com';
/** The emulator's own trigger domain (not SES's). */
export const LOCAL_EVENTS_DOMAIN = 'simulator.ses.localhost';

export type BounceType = 'Permanent' | 'Transient' | 'Undetermined';
/** Bounce sub-types of the SES event contents ("Bounce types"), plus OnTenantSuppressionList (tenant-level suppression). */
export type PermanentBounceSubType = 'General' | 'NoEmail' | 'Suppressed' | 'OnAccountSuppressionList' | 'OnTenantSuppressionList';
export type TransientBounceSubType = 'General' | 'MailboxFull' | 'MessageTooLarge' | 'ContentRejected' | 'AttachmentRejected';
export type BounceSubType = PermanentBounceSubType | TransientBounceSubType | 'Undetermined';

/** DeliveryDelay `delayType` values of the SES event contents. */
export const DELAY_TYPES = [
  'InternalFailure',
  'General',
  'MailboxFull',
  'SpamDetected',
  'RecipientServerError',
  'IPFailure',
  'TransientCommunicationFailure',
  'BYOIPHostNameLookupUnavailable',
  'Undetermined',
  'SendingDeferral',
] as const;
export type DelayType = (typeof DELAY_TYPES)[number];
export const DEFAULT_DELAY_TYPE: DelayType = 'TransientCommunicationFailure';

/**
 * What happens to one recipient. SES's own simulator gives the first four; the others are the
 * emulator's triggers (LOCAL_TRIGGERS).
 */
export type RecipientOutcome =
  | 'delivery'
  | 'bounce'
  | 'suppressed'
  | 'complaint'
  | 'tenant-suppressed'
  | 'no-email'
  | 'transient'
  | 'mailbox-full'
  | 'message-too-large'
  | 'content-rejected'
  | 'attachment-rejected'
  | 'undetermined'
  /** Complaint with complaintSubType OnAccountSuppressionList: SES accepted the message but did not send it. */
  | 'complaint-suppressed'
  /** DeliveryDelay, then Delivery. */
  | 'delay'
  /** Reject ("Bad content"): the whole message is delivered to nobody. */
  | 'reject'
  /** Refusals SES reports as General bounces, with the receiver's reply (REPLIES_OF). */
  | 'mailbox-inactive'
  | 'blocked-reputation'
  | 'rate-limited'
  | 'domain-invalid';

/** The Bounce each bouncing outcome publishes. */
export const BOUNCE_OF: Partial<Record<RecipientOutcome, { bounceType: BounceType; subType: BounceSubType }>> = {
  bounce: { bounceType: 'Permanent', subType: 'General' },
  suppressed: { bounceType: 'Permanent', subType: 'OnAccountSuppressionList' },
  'tenant-suppressed': { bounceType: 'Permanent', subType: 'OnTenantSuppressionList' },
  'no-email': { bounceType: 'Permanent', subType: 'NoEmail' },
  transient: { bounceType: 'Transient', subType: 'General' },
  'mailbox-full': { bounceType: 'Transient', subType: 'MailboxFull' },
  'message-too-large': { bounceType: 'Transient', subType: 'MessageTooLarge' },
  'content-rejected': { bounceType: 'Transient', subType: 'ContentRejected' },
  'attachment-rejected': { bounceType: 'Transient', subType: 'AttachmentRejected' },
  undetermined: { bounceType: 'Undetermined', subType: 'Undetermined' },
  'mailbox-inactive': { bounceType: 'Permanent', subType: 'General' },
  'blocked-reputation': { bounceType: 'Permanent', subType: 'General' },
  'rate-limited': { bounceType: 'Transient', subType: 'General' },
  // Reported by SES as Transient (sometimes Permanent) General, 5.4.4 "Invalid domain" (knadh/listmonk#1463).
  'domain-invalid': { bounceType: 'Transient', subType: 'General' },
};

/** A bounced recipient's enhanced status code and the receiving server's reply, as SES reports them. */
export interface BounceReply {
  status: string;
  diagnosticCode?: string;
}

/**
 * The replies of the outcomes that share a bounce type and sub-type with others (SES's General), as
 * real receivers answer (the texts of Gmail's and Spamhaus's published refusals; the address is the
 * emulator's `ses:source-ip`). The other outcomes take their sub-type's reply (events.ts).
 */
export const REPLIES_OF: Partial<Record<RecipientOutcome, BounceReply>> = {
  'mailbox-inactive': { status: '5.2.1', diagnosticCode: 'smtp; 550-5.2.1 The email account that you tried to reach is disabled.' },
  'blocked-reputation': {
    status: '5.7.1',
    diagnosticCode: 'smtp; 554 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org',
  },
  'rate-limited': {
    status: '4.7.28',
    diagnosticCode:
      'smtp; 421-4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.',
  },
  'domain-invalid': { status: '5.4.4', diagnosticCode: 'smtp; 550 5.4.4 Invalid domain' },
};

/** The emulator's triggers at LOCAL_EVENTS_DOMAIN, by local part (before any `+label`). */
export const LOCAL_TRIGGERS: Record<string, RecipientOutcome> = {
  transient: 'transient',
  mailboxfull: 'mailbox-full',
  messagetoolarge: 'message-too-large',
  contentrejected: 'content-rejected',
  attachmentrejected: 'attachment-rejected',
  undetermined: 'undetermined',
  noemail: 'no-email',
  tenantsuppressionlist: 'tenant-suppressed',
  complaintsuppressed: 'complaint-suppressed',
  delay: 'delay',
  reject: 'reject',
  inactive: 'mailbox-inactive',
  blocked: 'blocked-reputation',
  ratelimited: 'rate-limited',
};

const SES_SIMULATOR: Record<string, RecipientOutcome> = {
  bounce: 'bounce',
  suppressionlist: 'suppressed',
  complaint: 'complaint',
};

interface Parsed {
  mailbox: string;
  label: string | null;
  domain: string;
}

function parse(address: string): Parsed | null {
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  const local = address.slice(0, at).trim().toLowerCase();
  const plus = local.indexOf('+');
  return {
    mailbox: plus >= 0 ? local.slice(0, plus) : local,
    label: plus >= 0 ? local.slice(plus + 1) : null,
    domain: address
      .slice(at + 1)
      .trim()
      .toLowerCase(),
  };
}

/** The outcome of one envelope recipient (a bare address, e.g. `bounce+x@simulator.amazonses.com`). */
export function outcomeFor(address: string): RecipientOutcome {
  const p = parse(address);
  if (!p) return 'delivery';
  // success@, ooto@ (an auto-reply is still a delivery) and anything else are delivered.
  if (p.domain === SIMULATOR_DOMAIN) return SES_SIMULATOR[p.mailbox] ?? 'delivery';
  if (p.domain === LOCAL_EVENTS_DOMAIN) return LOCAL_TRIGGERS[p.mailbox] ?? 'delivery';
  if (isInvalidDomain(p.domain)) return 'domain-invalid';
  return 'delivery';
}

/** A domain reserved never to resolve (RFC 2606 `.invalid`), which SES cannot deliver to. */
function isInvalidDomain(domain: string): boolean {
  return domain === 'invalid' || domain.endsWith('.invalid');
}

/** A delayed recipient's delayType: its label when it names one (`delay+mailboxfull@…`, any case), else TransientCommunicationFailure. */
export function delayTypeFor(address: string): DelayType {
  const label = parse(address)?.label;
  return DELAY_TYPES.find((t) => t.toLowerCase() === label) ?? DEFAULT_DELAY_TYPE;
}

/** Whether the recipient asks for its outcome to be published before the others' (`+early`, the emulator's). */
export function isEarly(address: string): boolean {
  return parse(address)?.label === 'early';
}

/** A not-sent outcome SES publishes at once, without trying to deliver (published early in `ses` order). */
function notSent(outcome: RecipientOutcome): boolean {
  return outcome === 'suppressed' || outcome === 'tenant-suppressed' || outcome === 'complaint-suppressed';
}

/**
 * `outcome` (the default): Send, then DeliveryDelay, Delivery, Bounce, Complaint events.
 * `ses`: as SES publishes them, not-sent events (suppression-list bounces and complaints) right after
 * Send, before the outcome of the recipients it tried to deliver to.
 */
export type EventOrder = 'outcome' | 'ses';
export const EVENT_ORDERS: readonly EventOrder[] = ['outcome', 'ses'];

export type PlannedEvent = (
  | { type: 'Send' }
  | {
      type: 'Delivery';
      recipients: string[];
      /** A delayed recipient's delivery: it comes after its DeliveryDelay, once SES's retry got through (outbox.ts). */
      afterDelay?: boolean;
    }
  | { type: 'DeliveryDelay'; delayType: DelayType; recipients: string[] }
  | {
      type: 'Bounce';
      bounceType: BounceType;
      subType: BounceSubType;
      recipients: string[];
      /** The recipients whose reply is their outcome's own (REPLIES_OF), not their sub-type's. */
      replies?: Record<string, BounceReply>;
    }
  | { type: 'Complaint'; complaintSubType: 'OnAccountSuppressionList' | null; recipients: string[] }
  | { type: 'Reject' }
) & {
  /** Published right after Send (at acceptance), before the other outcome events. */
  early?: boolean;
};

export interface PlanOptions {
  order?: EventOrder;
  /**
   * An outcome decided before the simulator's (e.g. an address on a suppression list: a Permanent
   * OnAccountSuppressionList bounce); undefined leaves the recipient to the simulator.
   */
  outcomeOf?: (address: string) => RecipientOutcome | undefined;
}

/**
 * The events of one message in publishing order. One Delivery per recipient (SES may publish one
 * per recipient or one for several: the product must take either); recipients with the same bounce
 * type and sub-type, the same delay type, or the same complaint sub-type share one event. A Reject
 * replaces every outcome: SES delivered the message to nobody.
 */
export function plannedEvents(recipients: readonly string[], options: PlanOptions = {}): PlannedEvent[] {
  const order = options.order ?? 'outcome';
  const outcomes = recipients.map((r) => ({ r, o: options.outcomeOf?.(r) ?? outcomeFor(r), early: isEarly(r) }));
  if (outcomes.some(({ o }) => o === 'reject')) return [{ type: 'Send' }, { type: 'Reject' }];

  const delays: PlannedEvent[] = [];
  const deliveries: PlannedEvent[] = [];
  const bounces: PlannedEvent[] = [];
  const complaints: PlannedEvent[] = [];
  const grouped = new Map<string, PlannedEvent & { recipients: string[] }>();
  const group = (list: PlannedEvent[], key: string, make: () => PlannedEvent & { recipients: string[] }, r: string): void => {
    let event = grouped.get(key);
    if (!event) {
      event = make();
      grouped.set(key, event);
      list.push(event);
    }
    event.recipients.push(r);
  };
  for (const { r, o, early: asked } of outcomes) {
    const early = asked || (order === 'ses' && notSent(o));
    const flag = early ? { early: true } : {};
    const bounce = BOUNCE_OF[o];
    if (bounce) {
      const { bounceType, subType } = bounce;
      const key = `bounce:${bounceType}:${subType}:${early}`;
      group(bounces, key, () => ({ type: 'Bounce', bounceType, subType, recipients: [], ...flag }), r);
      const reply = REPLIES_OF[o];
      if (reply) {
        const event = grouped.get(key) as Extract<PlannedEvent, { type: 'Bounce' }>;
        event.replies = { ...event.replies, [r]: reply };
      }
      continue;
    }
    switch (o) {
      case 'complaint':
        deliveries.push({ type: 'Delivery', recipients: [r], ...flag });
        group(complaints, `complaint:${early}`, () => ({ type: 'Complaint', complaintSubType: null, recipients: [], ...flag }), r);
        break;
      case 'complaint-suppressed':
        group(
          complaints,
          `complaint-suppressed:${early}`,
          () => ({ type: 'Complaint', complaintSubType: 'OnAccountSuppressionList', recipients: [], ...flag }),
          r,
        );
        break;
      case 'delay': {
        const delayType = delayTypeFor(r);
        group(delays, `delay:${delayType}:${early}`, () => ({ type: 'DeliveryDelay', delayType, recipients: [], ...flag }), r);
        deliveries.push({ type: 'Delivery', recipients: [r], afterDelay: true, ...flag });
        break;
      }
      default:
        deliveries.push({ type: 'Delivery', recipients: [r], ...flag });
    }
  }
  const outcomesInOrder = [...delays, ...deliveries, ...bounces, ...complaints];
  return [{ type: 'Send' }, ...outcomesInOrder.filter((e) => e.early), ...outcomesInOrder.filter((e) => !e.early)];
}
