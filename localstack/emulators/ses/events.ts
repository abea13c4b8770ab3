/**
 * SES event-publishing records (configuration set -> SNS), as pure functions.
 *
 * Shapes follow the AWS documentation "Examples of event data that Amazon SES publishes to Amazon
 * SNS" and "Contents of event data"
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html): a
 * top-level `eventType`, the `mail` object and one type-specific object (`send`, `delivery`,
 * `bounce`, `complaint`, `deliveryDelay`, `reject`).
 */
import {
  DEFAULT_DELAY_TYPE,
  type BounceReply,
  type BounceSubType,
  type BounceType,
  type DelayType,
  type PermanentBounceSubType,
} from './simulator';

export interface MailHeader {
  name: string;
  value: string;
}

export interface CommonHeaders {
  from: string[];
  replyTo?: string[];
  to?: string[];
  cc?: string[];
  bcc?: string[];
  date?: string;
  messageId: string;
  subject?: string;
}

export interface SesMailObject {
  timestamp: string;
  source: string;
  sourceArn: string;
  sendingAccountId: string;
  messageId: string;
  destination: string[];
  headersTruncated: boolean;
  headers: MailHeader[];
  commonHeaders: CommonHeaders;
  tags: Record<string, string[]>;
}

export interface MailObjectInput {
  messageId: string;
  /** When SES accepted the message. */
  timestamp: string;
  /** Envelope sender as given (FromEmailAddress or the From header), e.g. `Ann <ann@example.com>`. */
  source: string;
  /** The bare sender address (for sourceArn and ses:from-domain). */
  sourceAddress: string;
  region: string;
  accountId: string;
  /** All envelope recipients (To, Cc and Bcc). */
  destination: string[];
  headers: MailHeader[];
  commonHeaders: CommonHeaders;
  configurationSet: string;
  /** EmailTags of the SendEmail call. */
  emailTags: Record<string, string>;
  /** The SendEmail TenantName, when the message named one. */
  tenantName?: string | null;
}

export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at >= 0 ? address.slice(at + 1).toLowerCase() : '';
}

/** The `mail` object shared by every event of one message. */
export function buildMailObject(input: MailObjectInput): SesMailObject {
  const fromDomain = domainOf(input.sourceAddress);
  const tags: Record<string, string[]> = {
    'ses:configuration-set': [input.configurationSet],
    'ses:source-ip': ['127.0.0.1'],
    'ses:from-domain': [fromDomain],
    'ses:caller-identity': ['local'],
  };
  // SES tags the events of a tenant's send with its name (tenant-level suppression page:
  // https://docs.aws.amazon.com/ses/latest/dg/sending-email-suppression-list-tenant-level.html).
  if (input.tenantName) tags['ses:tenant-name'] = [input.tenantName];
  for (const [name, value] of Object.entries(input.emailTags)) tags[name] = [value];
  return {
    timestamp: input.timestamp,
    source: input.source,
    sourceArn: `arn:aws:ses:${input.region}:${input.accountId}:identity/${fromDomain || input.sourceAddress}`,
    sendingAccountId: input.accountId,
    messageId: input.messageId,
    destination: [...input.destination],
    headersTruncated: false,
    headers: input.headers.map((h) => ({ name: h.name, value: h.value })),
    commonHeaders: input.commonHeaders,
    tags,
  };
}

/** Reporting MTA named in Delivery/Bounce records. */
export const LOCAL_MTA = 'local-ses.localhost';

export interface SendEvent {
  eventType: 'Send';
  mail: SesMailObject;
  send: Record<string, never>;
}

export interface DeliveryEvent {
  eventType: 'Delivery';
  mail: SesMailObject;
  delivery: {
    timestamp: string;
    processingTimeMillis: number;
    recipients: string[];
    smtpResponse: string;
    remoteMtaIp: string;
    reportingMTA: string;
  };
}

export interface BounceEvent {
  eventType: 'Bounce';
  mail: SesMailObject;
  bounce: {
    feedbackId: string;
    bounceType: BounceType;
    bounceSubType: BounceSubType;
    bouncedRecipients: { emailAddress: string; action: 'failed'; status: string; diagnosticCode?: string }[];
    timestamp: string;
    remoteMtaIp?: string;
    reportingMTA: string;
  };
}

export interface ComplaintEvent {
  eventType: 'Complaint';
  mail: SesMailObject;
  complaint: {
    feedbackId: string;
    complaintSubType: 'OnAccountSuppressionList' | null;
    complainedRecipients: { emailAddress: string }[];
    timestamp: string;
    userAgent?: string;
    complaintFeedbackType?: 'abuse';
    arrivalDate?: string;
  };
}

export interface DeliveryDelayEvent {
  eventType: 'DeliveryDelay';
  mail: SesMailObject;
  deliveryDelay: {
    timestamp: string;
    delayType: DelayType;
    expirationTime: string;
    delayedRecipients: { emailAddress: string; status: string; diagnosticCode: string }[];
    reportingMTA: string;
  };
}

export interface RejectEvent {
  eventType: 'Reject';
  mail: SesMailObject;
  reject: { reason: 'Bad content' };
}

export type SesEvent = SendEvent | DeliveryEvent | BounceEvent | ComplaintEvent | DeliveryDelayEvent | RejectEvent;

export function buildSendEvent(mail: SesMailObject): SendEvent {
  return { eventType: 'Send', mail, send: {} };
}

export function buildDeliveryEvent(mail: SesMailObject, recipients: string[], at: Date): DeliveryEvent {
  return {
    eventType: 'Delivery',
    mail,
    delivery: {
      timestamp: at.toISOString(),
      processingTimeMillis: Math.max(0, at.getTime() - Date.parse(mail.timestamp)),
      recipients: [...recipients],
      smtpResponse: '250 2.6.0 Message received',
      remoteMtaIp: '127.0.0.1',
      reportingMTA: LOCAL_MTA,
    },
  };
}

type Diagnostic = BounceReply;

/** Permanent bounces: the receiving server's answer, or SES's own text for the suppression lists (AWS knowledge center). */
export const BOUNCE_DIAGNOSTIC: Record<PermanentBounceSubType, Diagnostic> = {
  General: { status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
  NoEmail: { status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 The email account that you tried to reach does not exist' },
  Suppressed: {
    status: '5.1.1',
    diagnosticCode: 'Amazon SES has suppressed sending to this address because it has a recent history of bouncing as an invalid address.',
  },
  OnAccountSuppressionList: {
    status: '5.1.1',
    diagnosticCode: 'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
  },
  OnTenantSuppressionList: {
    status: '5.1.1',
    diagnosticCode: 'Amazon SES did not send the message to this address because it is on the suppression list for your tenant.',
  },
};

/** Transient bounces (SES stopped retrying) and Undetermined ones: typical receiving-server answers (the emulator's wording). */
export const SOFT_BOUNCE_DIAGNOSTIC: Record<TransientOrUndetermined, Diagnostic> = {
  'Transient/General': { status: '4.4.7', diagnosticCode: 'smtp; 451 4.4.7 Delivery time expired' },
  'Transient/MailboxFull': { status: '5.2.2', diagnosticCode: 'smtp; 552 5.2.2 Mailbox full' },
  'Transient/MessageTooLarge': { status: '5.3.4', diagnosticCode: 'smtp; 552 5.3.4 Message size exceeds fixed maximum message size' },
  'Transient/ContentRejected': { status: '5.7.1', diagnosticCode: 'smtp; 554 5.7.1 Message content rejected' },
  'Transient/AttachmentRejected': { status: '5.7.1', diagnosticCode: 'smtp; 554 5.7.1 Attachment type not allowed' },
  // SES could not tell why: no diagnostic code.
  'Undetermined/Undetermined': { status: '5.0.0' },
};
type TransientOrUndetermined =
  | `Transient/${Exclude<BounceSubType, 'NoEmail' | 'Suppressed' | 'OnAccountSuppressionList' | 'OnTenantSuppressionList' | 'Undetermined'>}`
  | 'Undetermined/Undetermined';

/** The bounce type SES pairs with a sub-type when the caller does not say (General: Permanent). */
export function bounceTypeOf(subType: BounceSubType): BounceType {
  if (subType === 'Undetermined') return 'Undetermined';
  return subType in BOUNCE_DIAGNOSTIC ? 'Permanent' : 'Transient';
}

function diagnosticOf(bounceType: BounceType, subType: BounceSubType): Diagnostic {
  if (bounceType === 'Permanent') return BOUNCE_DIAGNOSTIC[subType as PermanentBounceSubType] ?? BOUNCE_DIAGNOSTIC.General;
  return SOFT_BOUNCE_DIAGNOSTIC[`${bounceType}/${subType}` as TransientOrUndetermined] ?? SOFT_BOUNCE_DIAGNOSTIC['Transient/General'];
}

/**
 * A Bounce record; `bounceType` defaults to the sub-type's (bounceTypeOf), so `(…, 'OnAccountSuppressionList', …)` is Permanent.
 * Each recipient gets its own reply from `replies`, else the sub-type's.
 */
export function buildBounceEvent(
  mail: SesMailObject,
  recipients: string[],
  subType: BounceSubType,
  at: Date,
  feedbackId: string,
  bounceType: BounceType = bounceTypeOf(subType),
  replies: Readonly<Record<string, BounceReply>> = {},
): BounceEvent {
  const usual = diagnosticOf(bounceType, subType);
  // SES did not try to deliver to an address on a suppression list: no remote MTA.
  const attempted = subType !== 'OnAccountSuppressionList' && subType !== 'OnTenantSuppressionList' && subType !== 'Suppressed';
  return {
    eventType: 'Bounce',
    mail,
    bounce: {
      feedbackId,
      bounceType,
      bounceSubType: subType,
      bouncedRecipients: recipients.map((emailAddress) => {
        const { status, diagnosticCode } = replies[emailAddress] ?? usual;
        return { emailAddress, action: 'failed', status, ...(diagnosticCode ? { diagnosticCode } : {}) };
      }),
      timestamp: at.toISOString(),
      ...(attempted ? { remoteMtaIp: '127.0.0.1' } : {}),
      reportingMTA: `dsn; ${LOCAL_MTA}`,
    },
  };
}

/**
 * A Complaint record. With complaintSubType OnAccountSuppressionList SES "accepted the message, but
 * didn't attempt to send it because it was on the account-level suppression list": there is no
 * feedback report, so no userAgent, complaintFeedbackType or arrivalDate.
 */
export function buildComplaintEvent(
  mail: SesMailObject,
  recipients: string[],
  at: Date,
  feedbackId: string,
  complaintSubType: 'OnAccountSuppressionList' | null = null,
): ComplaintEvent {
  const ts = at.toISOString();
  return {
    eventType: 'Complaint',
    mail,
    complaint: {
      feedbackId,
      complaintSubType,
      complainedRecipients: recipients.map((emailAddress) => ({ emailAddress })),
      timestamp: ts,
      ...(complaintSubType === null
        ? { userAgent: 'Amazon SES Mailbox Simulator', complaintFeedbackType: 'abuse' as const, arrivalDate: ts }
        : {}),
    },
  };
}

/** How long SES goes on trying a delayed message after the delay (the record's expirationTime); the emulator's figure. */
export const DELAY_EXPIRATION_MS = 10 * 60_000;

const DELAY_DIAGNOSTIC: Partial<Record<DelayType, Diagnostic & { diagnosticCode: string }>> = {
  MailboxFull: { status: '4.2.2', diagnosticCode: 'smtp; 452 4.2.2 Mailbox full' },
  SpamDetected: { status: '4.7.1', diagnosticCode: 'smtp; 451 4.7.1 Temporarily rejected as spam' },
  RecipientServerError: { status: '4.3.0', diagnosticCode: 'smtp; 451 4.3.0 Temporary server error' },
};

export function buildDeliveryDelayEvent(
  mail: SesMailObject,
  recipients: string[],
  at: Date,
  delayType: DelayType = DEFAULT_DELAY_TYPE,
): DeliveryDelayEvent {
  const { status, diagnosticCode } = DELAY_DIAGNOSTIC[delayType] ?? {
    status: '4.4.1',
    diagnosticCode: 'smtp; 421 4.4.1 Unable to connect to remote host',
  };
  return {
    eventType: 'DeliveryDelay',
    mail,
    deliveryDelay: {
      timestamp: at.toISOString(),
      delayType,
      expirationTime: new Date(at.getTime() + DELAY_EXPIRATION_MS).toISOString(),
      delayedRecipients: recipients.map((emailAddress) => ({ emailAddress, status, diagnosticCode })),
      reportingMTA: LOCAL_MTA,
    },
  };
}

/** SES found a virus after accepting the message and did not deliver it: `reason` is always "Bad content". */
export function buildRejectEvent(mail: SesMailObject): RejectEvent {
  return { eventType: 'Reject', mail, reject: { reason: 'Bad content' } };
}
