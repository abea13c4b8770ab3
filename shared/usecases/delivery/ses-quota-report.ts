/**
 * What the operator sees of SES's quota (`npm run admin -- ses quota`, docs/deploy.md "SES quota"):
 * SES's own figures (GetAccount), the rate the send workers pace to, and how far ahead the shared budget
 * is spoken for (the backlog of sends waiting for SES's rate).
 */
import { paceRateOf } from '../../domain/ses/send-quota';
import type { MailProviderAccount } from '../../ports/mail-account';
import type { SesSendBudget } from '../../adapters/store/ses-send-budget';

export interface SesQuotaReportDeps {
  sesAccount: MailProviderAccount;
  sesSendBudget: Pick<SesSendBudget, 'backlogMs'>;
  /** SES_MAX_SEND_RATE (config.sesMaxSendRate): null when the workers pace to SES's own rate. */
  configuredRate: number | null;
  now: number;
}

export async function sesQuotaReport(deps: SesQuotaReportDeps) {
  const account = await deps.sesAccount.get();
  const rate = paceRateOf(account.maxSendRate, deps.configuredRate);
  return {
    ses: {
      max_send_rate: account.maxSendRate,
      max_24_hour_send: account.max24HourSend,
      sent_last_24_hours: account.sentLast24Hours,
      sending_enabled: account.sendingEnabled,
      production_access_enabled: account.productionAccessEnabled,
      enforcement_status: account.enforcementStatus,
    },
    pace: {
      recipients_per_second: rate,
      source:
        deps.configuredRate !== null
          ? 'SES_MAX_SEND_RATE'
          : rate === null
            ? 'none (SES reports no rate limit)'
            : 'SES GetAccount MaxSendRate x 0.9',
      backlog_seconds: rate === null ? 0 : Math.round((await deps.sesSendBudget.backlogMs(rate, deps.now)) / 100) / 10,
    },
  };
}
