/**
 * Mailer adapter: SES v2 SendEmail with raw MIME, the configuration set, our tags and (for a tenant's own
 * domain) the SES tenant's TenantName; and the domain
 * identities SES needs before it sends from a domain (BYODKIM with our key, custom MAIL FROM).
 */
import { tlsRequiredConfigurationSet } from './ses-configuration-sets';
import { sesMessageIdOf } from '../../domain/ses/ses-message-id';
import { createPrivateKey } from 'node:crypto';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  PutEmailIdentityDkimSigningAttributesCommand,
  PutEmailIdentityFeedbackAttributesCommand,
  PutEmailIdentityMailFromAttributesCommand,
  SendEmailCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import { parseMailbox } from '../../domain/mail/address';
import { MailerError, type DomainRegistration, type Mailer, type OutboundMessage } from '../../ports/mail';
import type { ProviderDomainState } from '../../domain/domains/provider-verification';
import { holdsOurKey, providerDomainState } from './ses-identity-state';
import { isUnverifiedSenderRefusal } from './ses-unverified-sender';

/** SES errors that will fail the same way on every retry. */
const PERMANENT = new Set([
  'MessageRejected',
  'BadRequestException',
  'MailFromDomainNotVerifiedException',
  'AccountSuspendedException',
  'SendingPausedException',
  'NotFoundException',
]);

/**
 * What SES answers a send naming a tenant whose tenant, or whose association with the identity or the
 * configuration set, is missing (the local emulator: NotFoundException for the tenant, BadRequestException
 * for an association; SES documents neither, to be settled on AWS). A paused (DISABLED) tenant is
 * answered SendingPausedException (the emulator's choice, docs/ses-tenants.md): never one of these, so
 * never sent around the pause at the account level.
 */
const TENANT_REFUSALS = new Set(['NotFoundException', 'BadRequestException']);
const TENANT_PAUSED = /\b(paused|disabled|suspended)\b/i;

function toMailerError(error: unknown, tenantName?: string, fromAddress?: string): MailerError {
  if (error instanceof MailerError) return error;
  const name = error instanceof Error ? error.name : 'Error';
  const text = error instanceof Error ? error.message : String(error);
  // SES not (yet) counting the sender verified: the caller decides how long that is worth waiting for.
  const senderNotVerified = fromAddress !== undefined && isUnverifiedSenderRefusal(error, fromAddress);
  return new MailerError(`SES ${name}: ${text}`, PERMANENT.has(name) && !senderNotVerified, {
    cause: error,
    // A refusal that speaks of a pause is never sent around, whatever its code (SES documents none).
    tenantRefused: Boolean(tenantName) && TENANT_REFUSALS.has(name) && !TENANT_PAUSED.test(text),
    senderNotVerified,
  });
}

const errorName = (error: unknown): string | undefined => (error instanceof Error ? error.name : undefined);

/**
 * The BYODKIM key as SES takes it (`DomainSigningPrivateKey`): base64 of the DER private key (PKCS#1
 * or PKCS#8 are accepted; we send PKCS#1), with no PEM armour and no line breaks.
 */
export function sesSigningKey(privateKeyPem: string): string {
  return createPrivateKey(privateKeyPem).export({ type: 'pkcs1', format: 'der' }).toString('base64');
}

export class SesMailer implements Mailer {
  constructor(
    private readonly ses: SESv2Client,
    private readonly configurationSet: string,
    /**
     * The client SendEmail goes through (shared/adapters/aws/ses-clients.ts, createSesSendClient), built on the
     * first send: the functions that only register domains or tenants never build it. `ses` by default.
     */
    private readonly senderFactory: () => SESv2Client = () => ses,
  ) {}

  private senderClient?: SESv2Client;

  private get sender(): SESv2Client {
    this.senderClient ??= this.senderFactory();
    return this.senderClient;
  }

  /** The region SES message ids are qualified with (resolved once). */
  private region?: Promise<string>;

  async send(message: OutboundMessage): Promise<{ providerMessageId: string; messageId: string }> {
    // The bare address: SES takes address parameters in 7-bit ASCII only, and the raw message's From
    // header already carries the display name, encoded (docs/local-cloud/ses.md, "Address encoding").
    const fromAddress = parseMailbox(message.from)?.email ?? message.from;
    try {
      const result = await this.sender.send(
        new SendEmailCommand({
          FromEmailAddress: fromAddress,
          Destination: { ToAddresses: message.to, CcAddresses: message.cc, BccAddresses: message.bcc },
          Content: { Raw: { Data: message.raw } },
          ConfigurationSetName:
            (message.requireTls ? tlsRequiredConfigurationSet(this.configurationSet) : this.configurationSet) || undefined,
          EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })),
          ...(message.tenantName ? { TenantName: message.tenantName } : {}),
        }),
      );
      if (!result.MessageId) throw new MailerError('SES returned no MessageId', false);
      this.region ??= this.sender.config.region();
      return {
        providerMessageId: result.MessageId,
        messageId: sesMessageIdOf(result.MessageId, await this.region),
      };
    } catch (error) {
      throw toMailerError(error, message.tenantName, fromAddress);
    }
  }

  /**
   * CreateEmailIdentity with BYODKIM; when the identity exists (an earlier verify) with another key, or SES
   * gave up verifying it, its signing attributes are set again (which restarts SES's verification); with
   * our key they are left alone, so a re-verification never sends a verified identity back to PENDING.
   * Then the custom MAIL FROM, when it differs. Answers whether SES can send from the domain yet.
   */
  async registerDomain(registration: DomainRegistration): Promise<ProviderDomainState> {
    const { domain, selector, privateKeyPem, mailFromDomain } = registration;
    try {
      const signing = { DomainSigningSelector: selector, DomainSigningPrivateKey: sesSigningKey(privateKeyPem) };
      const existing = await this.identity(domain);
      if (!existing) {
        // A verify racing this one may have created it (with the same key): that is done too.
        await this.ses
          .send(new CreateEmailIdentityCommand({ EmailIdentity: domain, DkimSigningAttributes: signing }))
          .catch((error: unknown) => {
            if (errorName(error) !== 'AlreadyExistsException') throw error;
          });
      } else if (!holdsOurKey(existing, selector)) {
        await this.ses.send(
          new PutEmailIdentityDkimSigningAttributesCommand({
            EmailIdentity: domain,
            SigningAttributesOrigin: 'EXTERNAL',
            SigningAttributes: signing,
          }),
        );
      }
      if (existing?.MailFromAttributes?.MailFromDomain !== mailFromDomain) {
        await this.ses.send(
          new PutEmailIdentityMailFromAttributesCommand({
            EmailIdentity: domain,
            MailFromDomain: mailFromDomain,
            BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
          }),
        );
      }
      // No bounce and complaint mail to our customers' From addresses (SES forwards it by default): the
      // events reach us through the configuration set, which is what lets us turn it off (docs/domains.md).
      if (existing?.FeedbackForwardingStatus !== false) {
        await this.ses.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: domain, EmailForwardingEnabled: false }));
      }
      return await this.domainState(domain);
    } catch (error) {
      throw toMailerError(error);
    }
  }

  async domainState(domain: string): Promise<ProviderDomainState> {
    try {
      const identity = await this.identity(domain);
      return identity
        ? providerDomainState(identity)
        : { status: 'pending', detail: 'SES has no identity for the domain yet; verify it again.' };
    } catch (error) {
      throw toMailerError(error);
    }
  }

  /** GetEmailIdentity; undefined when SES has no such identity. */
  private async identity(domain: string) {
    try {
      return await this.ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return undefined;
      throw error;
    }
  }

  async unregisterDomain(domain: string): Promise<void> {
    try {
      await this.ses.send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return;
      throw toMailerError(error);
    }
  }
}
