import type { Lookup } from '../domain/domains/evaluate';
import type { ProviderDomainState } from '../domain/domains/provider-verification';
import type { AutomationStepMessage, CheckedInboundMessage, SendMessage, ServiceEventMessage, WebhookDeliveryMessage } from '../domain/messages';

export type { ProviderDomainState } from '../domain/domains/provider-verification';

/**
 * Ports: what use cases need from the outside world. Adapters in shared/adapters/aws implement them with the AWS
 * SDK; the domain and use cases never import an AWS client directly.
 */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The send queue: one message per email to hand to the send worker (`sendMessageSchema`). */
export interface SendQueue {
  enqueue(message: SendMessage): Promise<void>;
  /**
   * Many messages in as few calls as the queue allows (the outbox relay). Answers the positions (in
   * `messages`) of those the queue did not accept; the others are enqueued.
   */
  enqueueMany(messages: SendMessage[]): Promise<{ failed: number[] }>;
}

/**
 * The webhook deliveries queue: one message per delivery attempt to hand to the delivery worker,
 * optionally delayed (retries, at most 900 s per SQS message). The message is `webhookDeliveryMessageSchema`'s.
 */
export interface WebhookDeliveryQueue {
  enqueue(message: WebhookDeliveryMessage, delaySeconds: number): Promise<void>;
}

/** The inbound queue: the MX listener hands each stored message (one per receiving account) to the inbound worker. */
export interface InboundQueue {
  /** All or nothing as far as the caller knows: throws when any message was not accepted. */
  enqueueAll(messages: CheckedInboundMessage[]): Promise<void>;
}

/** What the blob store knows about a stored object. */
export interface BlobInfo {
  size: number;
  contentType?: string;
  /** Opaque version tag (S3 ETag), for a copy of exactly this version. */
  etag?: string;
}

/** A URL a client can PUT one object to directly, and the headers it must send with it. */
export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

export interface BlobStore {
  put(key: string, body: string | Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The object's size and type, or null when there is no object at `key`. */
  head(key: string): Promise<BlobInfo | null>;
  /** Deletes the object at `key` (none there: nothing to do). */
  delete(key: string): Promise<void>;
  /** Server-side copy; with `ifMatch`, only while the source still has that etag (throws otherwise). */
  copy(fromKey: string, toKey: string, options?: { ifMatch?: string }): Promise<void>;
  /**
   * A presigned PUT for `key`, valid `expiresInSeconds`: the content type is signed (the client sends
   * exactly that Content-Type), and so is the length when given (S3 refuses a body of another size).
   */
  presignPut(key: string, options: { contentType: string; contentLength?: number; expiresInSeconds: number }): Promise<PresignedPut>;
  /**
   * A presigned GET of `key`, valid `expiresInSeconds`: always a download, saved under `downloadName`
   * (Content-Disposition: attachment) and served as `contentType`, whatever the object was stored with
   * (S3's response-content-* overrides): the bucket's origin never renders what a link points at.
   */
  presignGet(key: string, options: { expiresInSeconds: number; downloadName: string; contentType: string }): Promise<string>;
}

export interface OutboundMessage {
  raw: Buffer;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  tags: Record<string, string>;
  /**
   * The provider-side tenant to send through (SES v2 `TenantName` = our tenant id): set only for a tenant's
   * email sent from a domain that tenant owns, so the provider keeps that tenant's reputation apart.
   */
  tenantName?: string;
  /** Deliver only over TLS (the sending domain's `tls_mode: enforced`): the TLS-required configuration set. */
  requireTls?: boolean;
}

/** What the provider needs to send from a verified domain: our DKIM key and the MAIL FROM domain. */
export interface DomainRegistration {
  domain: string;
  /** The DKIM selector the public key is published under (`<selector>._domainkey.<domain>`). */
  selector: string;
  /** The domain's DKIM private key (PKCS#8 PEM, as generated); never logged. */
  privateKeyPem: string;
  /** Custom MAIL FROM (return path) domain, `rp.<domain>`. */
  mailFromDomain: string;
}

/** The SES account's quota and state (SESv2 GetAccount), for the send path's pace and the operator. */
export interface SesAccountState {
  /** Recipients per second; null: unlimited (the local SES with no quota set answers -1). */
  maxSendRate: number | null;
  /** Recipients per rolling 24 hours; null: unlimited (SES answers -1). */
  max24HourSend: number | null;
  sentLast24Hours: number;
  /** False while the account's sending is paused (PutAccountSendingAttributes, or SES's enforcement). */
  sendingEnabled: boolean;
  /** False in the SES sandbox: only verified recipients, 1/s and 200 a day. */
  productionAccessEnabled: boolean;
  /** HEALTHY, PROBATION or SHUTDOWN. */
  enforcementStatus: string | null;
}

/** The mail provider's account (SES: GetAccount; shared/adapters/aws/ses-account.ts). */
export interface MailProviderAccount {
  get(): Promise<SesAccountState>;
}

/** The mail transfer provider (SES). */
export interface Mailer {
  /**
   * Returns the provider's message id and the Message-ID field recipients see (SES replaces the message's
   * own: shared/adapters/aws/ses-message-id.ts). Throws MailerError.
   */
  send(message: OutboundMessage): Promise<{ providerMessageId: string; messageId?: string }>;
  /**
   * Makes the domain a sending identity of the provider, signing with our DKIM key and using the
   * given MAIL FROM domain, and answers whether the provider can send from it yet. Idempotent: an identity
   * that exists with this key keeps its verification (its key is not set again); one with another key,
   * or whose verification failed, gets this key again. Throws MailerError.
   */
  registerDomain(registration: DomainRegistration): Promise<ProviderDomainState>;
  /** Whether the provider can send from the registered domain yet (SES: GetEmailIdentity). Throws MailerError. */
  domainState(domain: string): Promise<ProviderDomainState>;
  /** Removes the domain's sending identity; one that does not exist is not an error. Throws MailerError. */
  unregisterDomain(domain: string): Promise<void>;
}

/**
 * A resource a provider tenant may use: a sending identity (a domain), or our configuration set (the main
 * one, or with `tlsRequired` its TLS-required twin, which domains with `tls_mode: enforced` send through).
 */
export type SesTenantResource = { kind: 'identity'; name: string } | { kind: 'configuration_set'; tlsRequired?: boolean };

/**
 * The provider's tenants (SES v2 tenants, named by our tenant id): SES keeps sending reputation and status
 * per tenant, and a send naming a tenant may use only the resources associated with it. Every call is
 * idempotent: creating what exists, or removing what is gone, is done. Throws on provider failure.
 */
export interface SesTenants {
  /** Creates the provider tenant (CreateTenant); one that exists is not an error. */
  ensureTenant(tenantId: string): Promise<void>;
  /** Deletes the provider tenant and with it every association (DeleteTenant); an absent one is not an error. */
  deleteTenant(tenantId: string): Promise<void>;
  /** Lets the tenant use the resource (CreateTenantResourceAssociation); an existing association is not an error. */
  associate(tenantId: string, resource: SesTenantResource): Promise<void>;
  /** Removes the association (DeleteTenantResourceAssociation); an absent one (or tenant) is not an error. */
  dissociate(tenantId: string, resource: SesTenantResource): Promise<void>;
  /** One page of the account's provider tenants (ListTenants), with the token of the next page (null: the last). */
  listTenants(page: { nextToken?: string; pageSize: number }): Promise<SesTenantPage>;
  /** Whether the provider tenant exists (GetTenant). */
  exists(tenantId: string): Promise<boolean>;
  /** Whether the provider tenant may use our configuration set (ListTenantResources); false when it does not exist. */
  usesOurConfigurationSet(tenantId: string): Promise<boolean>;
}

export interface SesTenantPage {
  tenants: { name: string }[];
  nextToken: string | null;
}

/**
 * One-time schedules that deliver `{email_id, schedule_version}` to the send queue at a given time
 * (EventBridge Scheduler). Named after the email, so there is at most one per email.
 */
export interface EmailScheduler {
  /** Creates the email's schedule, or moves it when one exists. */
  upsert(emailId: string, at: Date, version: number): Promise<void>;
  /** Removes it; a schedule that already fired or never existed is not an error. */
  remove(emailId: string): Promise<void>;
}

/**
 * Wakes a waiting automation step (a delay's end, a wait's timeout): a one-time schedule that delivers
 * `{run_id, step_index, wake: true}` to the automation-steps queue at `at` (EventBridge Scheduler).
 */
export interface StepScheduler {
  /** Creates (or moves) the schedule of (run, step). */
  wakeAt(runId: string, stepIndex: number, at: Date): Promise<void>;
}

/** The automation-steps queue: a run's step is due (`automationStepMessageSchema`). */
export interface AutomationStepQueue {
  /** All or nothing as far as the caller knows: throws when any message was not accepted. */
  enqueueAll(messages: AutomationStepMessage[]): Promise<void>;
}

/** Publishes service events for webhook fan-out (one queue message per event, `serviceEventSchema`). */
export interface EventPublisher {
  publish(events: ServiceEventMessage[]): Promise<void>;
}

/** DNS lookups for domain verification. */
export interface DnsResolver {
  txt(name: string): Promise<Lookup>;
  /** Raw TXT chunks (for DKIM verification); throws when the lookup fails. */
  txtChunks(name: string): Promise<string[][]>;
  cname(name: string): Promise<Lookup>;
  mx(name: string): Promise<Lookup>;
}

/**
 * Whether a domain is a disposable (throwaway) mail service (address validation). A maintained list
 * behind it: shared/adapters/validation/disposable-domains.ts.
 */
export interface DisposableDomains {
  /** `domain` in lower case, IDN labels as A-labels; its parent domains count too (a.mailinator.com). */
  isDisposable(domain: string): boolean;
}

/** Addresses of a host name, through the same resolvers as DnsResolver (webhook URL checks). */
export interface HostResolver {
  /**
   * The host's A and AAAA addresses; an IP literal resolves to itself. [] when the name has none
   * (NXDOMAIN, NODATA); throws when the lookup itself failed (timeout, SERVFAIL).
   */
  resolveAddresses(host: string): Promise<string[]>;
}

/**
 * Public certificates of hosted MTA-STS policy hosts (ACM in AWS: shared/adapters/aws/acm-host-certificates.ts),
 * validated through a DNS record the domain's owner publishes.
 */
export interface HostCertificates {
  /** Requests a certificate for `host`; the same `token` within an hour answers the same certificate. */
  request(host: string, token: string): Promise<{ arn: string }>;
  /** null when the certificate is gone. `validationRecord` is null until the provider has made it (seconds). */
  describe(arn: string): Promise<HostCertificate | null>;
  /** Deletes it: `deleted` (or already gone), or `in_use` while a custom domain name still uses it (retry later). */
  remove(arn: string): Promise<'deleted' | 'in_use'>;
}

export interface HostCertificate {
  status: 'pending' | 'issued' | 'failed';
  /** Why it failed (the provider's status and reason), when failed. */
  failure: string | null;
  validationRecord: { name: string; value: string } | null;
}

/**
 * Custom domain names of hosted MTA-STS policy hosts (API Gateway in AWS:
 * shared/adapters/aws/apigateway-host-domains.ts), served by the MTA-STS API.
 */
export interface HostDomainNames {
  /** Creates (or finds, when it exists) the custom domain name `host` with the certificate, mapped to the API; answers its target host name. */
  ensure(host: string, certificateArn: string): Promise<{ target: string }>;
  /** Deletes the custom domain name and its mappings (already gone: fine). */
  remove(host: string): Promise<void>;
}

/**
 * How much of the AWS account's quotas hosted MTA-STS policies draw on is used, by anything in the account and
 * Region (shared/adapters/aws/hosting-quota-usage.ts): for the operator's headroom report.
 */
export interface HostingQuotaUsage {
  /** Regional custom domain names (API Gateway). */
  domainNames(): Promise<number>;
  /** ACM certificates, every status and key type. */
  certificates(): Promise<number>;
}

/** A step AWS refused for a limit of the account (a quota): not retried; the message says which. */
export class HostingQuotaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostingQuotaError';
  }
}

/** A provider failure, classified: permanent failures are not retried. */
export class MailerError extends Error {
  /**
   * True when a send naming a provider tenant was refused for the tenant context itself (the tenant, or
   * the association of the identity or configuration set with it, is missing), not for the message.
   */
  readonly tenantRefused: boolean;
  /**
   * True when the provider refused the send because it does not (yet) count the sender's identity as
   * verified (SES: MessageRejected "Email address is not verified" naming the From address): transient
   * for a while when the domain is our own verified one (SES still verifying), see deliver-email.
   */
  readonly senderNotVerified: boolean;

  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown; tenantRefused?: boolean; senderNotVerified?: boolean },
  ) {
    super(message, options);
    this.tenantRefused = options?.tenantRefused ?? false;
    this.senderNotVerified = options?.senderNotVerified ?? false;
    this.name = 'MailerError';
  }
}
