/**
 * The SES account's quota and state (SESv2 GetAccount:
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_GetAccount.html), for the send path's pace
 * and the operator (`npm run admin -- ses quota`).
 */
import { GetAccountCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailProviderAccount, SesAccountState } from '../../ports/mail-account';

const limit = (value: number | undefined): number | null => (typeof value === 'number' && value > 0 ? value : null);

export class SesAccount implements MailProviderAccount {
  constructor(private readonly ses: SESv2Client) {}

  async get(): Promise<SesAccountState> {
    const account = await this.ses.send(new GetAccountCommand({}));
    return {
      maxSendRate: limit(account.SendQuota?.MaxSendRate),
      max24HourSend: limit(account.SendQuota?.Max24HourSend),
      sentLast24Hours: account.SendQuota?.SentLast24Hours ?? 0,
      sendingEnabled: account.SendingEnabled ?? true,
      productionAccessEnabled: account.ProductionAccessEnabled ?? false,
      enforcementStatus: account.EnforcementStatus ?? null,
    };
  }
}
