/**
 * Mailer adapter: SES v2 SendEmail with raw MIME, the configuration set, our tags and (for a tenant's own
 * domain) the SES tenant's TenantName; and the domain
 * identities SES needs before it sends from a domain (BYODKIM with our key, custom MAIL FROM).
 */
import { tlsRequiredConfigurationSet } from './ses-configuration-sets';
import { createPrivateKey } from 'node:crypto';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  PutEmailIdentityDkimSigningAttributesCommand,
  PutEmailIdentityMailFromAttributesCommand,
  SendEmailCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import { MailerError, type DomainRegistration, type Mailer, type OutboundMessage } from '../ports';

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
 * for an association).
 */
const TENANT_REFUSALS = new Set(['NotFoundException', 'BadRequestException']);

function toMailerError(error: unknown, tenantName?: string): MailerError {
  if (error instanceof MailerError) return error;
  const name = error instanceof Error ? error.name : 'Error';
  const text = error instanceof Error ? error.message : String(error);
  return new MailerError(`SES ${name}: ${text}`, PERMANENT.has(name), { cause: error, tenantRefused: Boolean(tenantName) && TENANT_REFUSALS.has(name) });
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
  ) {}

  async send(message: OutboundMessage): Promise<{ providerMessageId: string }> {
    try {
      const result = await this.ses.send(
        new SendEmailCommand({
          FromEmailAddress: message.from,
          Destination: { ToAddresses: message.to, CcAddresses: message.cc, BccAddresses: message.bcc },
          Content: { Raw: { Data: message.raw } },
          ConfigurationSetName: (message.requireTls ? tlsRequiredConfigurationSet(this.configurationSet) : this.configurationSet) || undefined,
          EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })),
          ...(message.tenantName ? { TenantName: message.tenantName } : {}),
        }),
      );
      if (!result.MessageId) throw new MailerError('SES returned no MessageId', false);
      return { providerMessageId: result.MessageId };
    } catch (error) {
      throw toMailerError(error, message.tenantName);
    }
  }

  /**
   * CreateEmailIdentity with BYODKIM; when the identity exists (an earlier verify), its signing
   * attributes are set again instead, so a re-verification is idempotent. Then the custom MAIL FROM.
   */
  async registerDomain(registration: DomainRegistration): Promise<void> {
    const { domain, selector, privateKeyPem, mailFromDomain } = registration;
    try {
      const signing = { DomainSigningSelector: selector, DomainSigningPrivateKey: sesSigningKey(privateKeyPem) };
      try {
        await this.ses.send(new CreateEmailIdentityCommand({ EmailIdentity: domain, DkimSigningAttributes: signing }));
      } catch (error) {
        if (errorName(error) !== 'AlreadyExistsException') throw error;
        await this.ses.send(
          new PutEmailIdentityDkimSigningAttributesCommand({ EmailIdentity: domain, SigningAttributesOrigin: 'EXTERNAL', SigningAttributes: signing }),
        );
      }
      await this.ses.send(
        new PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: domain, MailFromDomain: mailFromDomain, BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' }),
      );
    } catch (error) {
      throw toMailerError(error);
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
