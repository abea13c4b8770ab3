/**
 * SES event-publishing records (configuration set -> SNS), as pure functions.
 *
 * Shapes follow the AWS documentation "Examples of event data that Amazon SES publishes to Amazon
 * SNS": a top-level `eventType`, the `mail` object and one type-specific object (`send`,
 * `delivery`, `bounce`, `complaint`).
 */
import type { BounceSubType } from './simulator';

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
    bounceType: 'Permanent';
    bounceSubType: BounceSubType;
    bouncedRecipients: { emailAddress: string; action: 'failed'; status: string; diagnosticCode: string }[];
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
    complaintSubType: null;
    complainedRecipients: { emailAddress: string }[];
    timestamp: string;
    userAgent: string;
    complaintFeedbackType: 'abuse';
    arrivalDate: string;
  };
}

export type SesEvent = SendEvent | DeliveryEvent | BounceEvent | ComplaintEvent;

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

export const BOUNCE_DIAGNOSTIC: Record<BounceSubType, { status: string; diagnosticCode: string }> = {
  General: { status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
  OnAccountSuppressionList: {
    status: '5.1.1',
    diagnosticCode: 'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
  },
};

export function buildBounceEvent(
  mail: SesMailObject,
  recipients: string[],
  subType: BounceSubType,
  at: Date,
  feedbackId: string,
): BounceEvent {
  const { status, diagnosticCode } = BOUNCE_DIAGNOSTIC[subType];
  return {
    eventType: 'Bounce',
    mail,
    bounce: {
      feedbackId,
      bounceType: 'Permanent',
      bounceSubType: subType,
      bouncedRecipients: recipients.map((emailAddress) => ({ emailAddress, action: 'failed', status, diagnosticCode })),
      timestamp: at.toISOString(),
      ...(subType === 'General' ? { remoteMtaIp: '127.0.0.1' } : {}),
      reportingMTA: `dsn; ${LOCAL_MTA}`,
    },
  };
}

export function buildComplaintEvent(mail: SesMailObject, recipients: string[], at: Date, feedbackId: string): ComplaintEvent {
  const ts = at.toISOString();
  return {
    eventType: 'Complaint',
    mail,
    complaint: {
      feedbackId,
      complaintSubType: null,
      complainedRecipients: recipients.map((emailAddress) => ({ emailAddress })),
      timestamp: ts,
      userAgent: 'Amazon SES Mailbox Simulator',
      complaintFeedbackType: 'abuse',
      arrivalDate: ts,
    },
  };
}
