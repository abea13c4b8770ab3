/**
 * Port: the mail transfer provider (SES in AWS: shared/adapters/aws/ses-mailer.ts): sending, and the
 * domains it sends from. Its failures are MailerErrors.
 */
import type { ProviderDomainState } from '../domain/domains/provider-verification';

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

/** The mail transfer provider (SES). */
export interface Mailer {
  /**
   * Returns the provider's message id and the Message-ID field recipients see (SES replaces the message's
   * own: shared/domain/ses/ses-message-id.ts). Throws MailerError.
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
