/** Mailer adapter: SES v2 SendEmail with raw MIME, the configuration set and our tags. */
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { MailerError, type Mailer, type OutboundMessage } from '../ports';

/** SES errors that will fail the same way on every retry. */
const PERMANENT = new Set([
  'MessageRejected',
  'BadRequestException',
  'MailFromDomainNotVerifiedException',
  'AccountSuspendedException',
  'SendingPausedException',
  'NotFoundException',
]);

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
          ConfigurationSetName: this.configurationSet || undefined,
          EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })),
        }),
      );
      if (!result.MessageId) throw new MailerError('SES returned no MessageId', false);
      return { providerMessageId: result.MessageId };
    } catch (error) {
      if (error instanceof MailerError) throw error;
      const name = error instanceof Error ? error.name : 'Error';
      const text = error instanceof Error ? error.message : String(error);
      throw new MailerError(`SES ${name}: ${text}`, PERMANENT.has(name), { cause: error });
    }
  }
}
