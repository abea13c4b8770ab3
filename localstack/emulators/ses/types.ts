/** Shared data shapes of the local SES emulator (no behaviour here). */
import type { SesMailObject } from './events';
import type { BounceReply, BounceSubType, BounceType, DelayType } from './simulator';
import type { Json } from './validate';

/** Event types this emulator publishes (the `eventType` values SES uses). */
export type SesEventType = 'Send' | 'Delivery' | 'Bounce' | 'Complaint' | 'DeliveryDelay' | 'Reject';

/** SESv2 `MatchingEventTypes` values. */
export const MATCHING_EVENT_TYPES = [
  'SEND',
  'REJECT',
  'BOUNCE',
  'COMPLAINT',
  'DELIVERY',
  'OPEN',
  'CLICK',
  'RENDERING_FAILURE',
  'DELIVERY_DELAY',
  'SUBSCRIPTION',
] as const;

export type MatchingEventType = (typeof MATCHING_EVENT_TYPES)[number];

/** The `MatchingEventTypes` value that selects each published event type. */
export const MATCHING_TYPE_OF: Record<SesEventType, MatchingEventType> = {
  Send: 'SEND',
  Delivery: 'DELIVERY',
  Bounce: 'BOUNCE',
  Complaint: 'COMPLAINT',
  DeliveryDelay: 'DELIVERY_DELAY',
  Reject: 'REJECT',
};

/** The destination kinds SESv2 accepts; only SnsDestination publishes locally. */
export const DESTINATION_KINDS = [
  'SnsDestination',
  'CloudWatchDestination',
  'KinesisFirehoseDestination',
  'EventBridgeDestination',
  'PinpointDestination',
] as const;

export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** An event destination as SESv2 returns it from GetConfigurationSetEventDestinations. */
export interface EventDestination {
  Name: string;
  Enabled: boolean;
  MatchingEventTypes: MatchingEventType[];
  SnsDestination?: { TopicArn: string };
  CloudWatchDestination?: unknown;
  KinesisFirehoseDestination?: unknown;
  EventBridgeDestination?: unknown;
  PinpointDestination?: unknown;
}

/** Options stored with a configuration set and echoed by GetConfigurationSet. */
export const CONFIGURATION_SET_OPTION_KEYS = [
  'TrackingOptions',
  'DeliveryOptions',
  'ReputationOptions',
  'SendingOptions',
  'Tags',
  'SuppressionOptions',
  'VdmOptions',
  'ArchivingOptions',
] as const;

export interface ConfigurationSet {
  name: string;
  createdAt: string;
  /** The CreateConfigurationSet option objects, kept verbatim (keys from CONFIGURATION_SET_OPTION_KEYS). */
  options: Record<string, unknown>;
  eventDestinations: EventDestination[];
}

export interface StoredEvent {
  type: SesEventType;
  at: string;
}

/** One accepted message. `raw` holds the MIME as SES delivers it: as received (or composed for Simple content) with SES's changes (delivered-bytes.ts). */
export interface StoredMessage {
  id: string;
  /** Insertion order; stable across restarts. */
  seq: number;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  configurationSet: string | null;
  tags: Record<string, string>;
  /** The SendEmail `TenantName` (an SES tenant), null when the message named none. */
  tenantName: string | null;
  raw: Buffer;
  /** Events published (on every topic), in order. */
  events: StoredEvent[];
  /** Events owed for this message, published or not (see outbox.ts); empty without a configuration set. */
  outbox: OutboxEntry[];
  /** The `mail` object of its event records; null when it owes no events. */
  eventMail: SesMailObject | null;
}

/** JSON-ready view of a message without its bytes (what the viewer endpoints return unless asked for `raw`). */
export interface LocalSesMessageSummary {
  id: string;
  received_at: string;
  from: string;
  to: string[];
  subject: string;
  configuration_set: string | null;
  tags: Record<string, string>;
  /** The SendEmail `TenantName`, null when the message named none. */
  tenant_name: string | null;
  events: { type: string; at: string }[];
}

/** JSON-ready view of a message with its bytes: `raw` as UTF-8 text, `raw_base64` exact. */
export interface LocalSesMessage extends LocalSesMessageSummary {
  raw: string;
  raw_base64: string;
}

export function toLocalMessageSummary(m: StoredMessage): LocalSesMessageSummary {
  return {
    id: m.id,
    received_at: m.receivedAt,
    from: m.from,
    to: [...m.to],
    subject: m.subject,
    configuration_set: m.configurationSet,
    tags: { ...m.tags },
    tenant_name: m.tenantName,
    events: m.events.map((e) => ({ type: e.type, at: e.at })),
  };
}

export function toLocalMessage(m: StoredMessage): LocalSesMessage {
  return { ...toLocalMessageSummary(m), raw: m.raw.toString('utf8'), raw_base64: m.raw.toString('base64') };
}

/** How SES signs for an identity: our own key (BYODKIM, `EXTERNAL`) or keys SES made (Easy DKIM). */
export type IdentityDkim =
  | {
      origin: 'EXTERNAL';
      selector: string;
      /** SPKI DER, base64. */
      publicKey: string;
      keyBits: number;
      /** The key SES signs with (PKCS#8 PEM; kept in the store, never returned by an operation or the viewer); absent in files of older versions. */
      privateKeyPem?: string;
    }
  | { origin: 'AWS_SES'; tokens: string[]; keyLength: 'RSA_1024_BIT' | 'RSA_2048_BIT' };

/** SES's verification states the emulator uses (TEMPORARY_FAILURE and NOT_STARTED are not produced). */
export type VerificationStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** An identity's verification (./verification.ts): since when SES looks for its records, and what it found. */
export interface IdentityVerification {
  status: VerificationStatus;
  startedAt: string;
  verifiedAt?: string;
}

/** One email identity (a domain or an address), verified once DNS shows its records (./verification.ts). */
export interface EmailIdentity {
  name: string;
  type: 'DOMAIN' | 'EMAIL_ADDRESS';
  createdAt: string;
  updatedAt: string;
  configurationSet: string | null;
  tags: unknown[];
  dkim: IdentityDkim | null;
  /** `status`: PENDING until DNS shows an MX record for the domain (absent in identities stored before it). */
  mailFrom: { domain: string; behaviorOnMxFailure: 'USE_DEFAULT_VALUE' | 'REJECT_MESSAGE'; status?: VerificationStatus } | null;
  /** Absent in identities stored before verification was modeled: PENDING since `updatedAt` (verification.ts). */
  verification?: IdentityVerification;
  /** PutEmailIdentityFeedbackAttributes' EmailForwardingEnabled; absent = true, SES's default (feedback-forwarding.ts). */
  feedbackForwarding?: boolean;
}

/** JSON-ready view of an identity (what the viewer endpoints return); never a private key. */
export interface LocalSesIdentity {
  identity: string;
  identity_type: 'DOMAIN' | 'EMAIL_ADDRESS';
  created_at: string;
  updated_at: string;
  configuration_set: string | null;
  dkim_origin: 'EXTERNAL' | 'AWS_SES' | null;
  /** BYODKIM selector; null for Easy DKIM or no DKIM. */
  dkim_selector: string | null;
  /** BYODKIM public key (SPKI DER, base64: the `p=` value of the DKIM record). */
  dkim_public_key: string | null;
  dkim_key_bits: number | null;
  mail_from_domain: string | null;
  behavior_on_mx_failure: 'USE_DEFAULT_VALUE' | 'REJECT_MESSAGE' | null;
  /** As last checked (./verification.ts): PENDING until DNS shows the identity's records. */
  verification_status: VerificationStatus;
  mail_from_status: VerificationStatus | null;
}

export function toLocalIdentity(i: EmailIdentity): LocalSesIdentity {
  const dkim = i.dkim;
  return {
    identity: i.name,
    identity_type: i.type,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    configuration_set: i.configurationSet,
    dkim_origin: dkim?.origin ?? null,
    dkim_selector: dkim?.origin === 'EXTERNAL' ? dkim.selector : null,
    dkim_public_key: dkim?.origin === 'EXTERNAL' ? dkim.publicKey : null,
    dkim_key_bits: dkim?.origin === 'EXTERNAL' ? dkim.keyBits : dkim ? (dkim.keyLength === 'RSA_1024_BIT' ? 1024 : 2048) : null,
    mail_from_domain: i.mailFrom?.domain ?? null,
    behavior_on_mx_failure: i.mailFrom?.behaviorOnMxFailure ?? null,
    verification_status: i.verification?.status ?? 'PENDING',
    mail_from_status: i.mailFrom ? (i.mailFrom.status ?? 'PENDING') : null,
  };
}

/** SESv2 tenant resource types (ListTenantResources `ResourceType`). */
export type TenantResourceType = 'EMAIL_IDENTITY' | 'CONFIGURATION_SET' | 'EMAIL_TEMPLATE';

/** One SES tenant: its identifiers and the resources (by ARN) it may use when a send names it. */
export interface SesTenant {
  name: string;
  id: string;
  arn: string;
  createdAt: string;
  tags: unknown[];
  /** Associated resources, in association order. */
  resources: { arn: string; type: TenantResourceType }[];
  /** Its customer-managed sending status (UpdateReputationEntityCustomerManagedStatus); absent = ENABLED (tenant-status.ts). */
  sendingStatus?: { status: 'ENABLED' | 'REINSTATED' | 'DISABLED'; updatedAt: string };
  /** Its SuppressionAttributes (CreateTenant, PutTenantSuppressionAttributes); absent = ACCOUNT scope (suppression-list.ts). */
  suppression?: { reasons: ('BOUNCE' | 'COMPLAINT')[]; scope: 'ACCOUNT' | 'TENANT' };
}

/** JSON-ready view of a tenant (the viewer endpoints). */
export interface LocalSesTenant {
  tenant_name: string;
  tenant_id: string;
  tenant_arn: string;
  created_at: string;
  sending_status: 'ENABLED' | 'REINSTATED' | 'DISABLED';
  resources: { arn: string; type: TenantResourceType }[];
}

export function toLocalTenant(t: SesTenant): LocalSesTenant {
  return {
    tenant_name: t.name,
    tenant_id: t.id,
    tenant_arn: t.arn,
    created_at: t.createdAt,
    sending_status: t.sendingStatus?.status ?? 'ENABLED',
    resources: t.resources.map((r) => ({ ...r })),
  };
}

/** What an API action answers: its JSON body, and work to do once the answer is sent. */
export interface OperationResult {
  body: Json;
  afterResponse?: () => void;
}

/** One event SES owes for a message (./outbox.ts plans them when SendEmail accepts it). */
export interface OutboxEntry {
  type: SesEventType;
  /** When the event is due (ISO); also the timestamp its record carries. */
  at: string;
  /** Every topic the event goes to (the matching destinations when the message was accepted). */
  topics: string[];
  /** Topics it has not reached yet; empty once published. */
  unpublished: string[];
  /** Delivery, Bounce, Complaint, DeliveryDelay: the recipients concerned. */
  recipients?: string[];
  bounceSubType?: BounceSubType;
  /** Absent in outboxes stored before Transient bounces existed: the sub-type's usual type. */
  bounceType?: BounceType;
  /** Bounce: the recipients whose reply is their own, not their sub-type's (simulator.ts REPLIES_OF). */
  replies?: Record<string, BounceReply>;
  complaintSubType?: 'OnAccountSuppressionList';
  delayType?: DelayType;
  /** Bounce, Complaint. */
  feedbackId?: string;
  /** When it reached its last topic. */
  publishedAt?: string;
}
