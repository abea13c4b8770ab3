/** `ses quota` (../admin.ts): SES's send quota and account state, the rate sends are paced to, the backlog (read only). */
import { SesSendBudget } from '#shared/adapters/store/ses-send-budget';
import { buildSesPace } from '#shared/services/ses-pace';
import { sesQuotaReport } from '#shared/usecases/delivery/ses-quota-report';
import type { Command } from './context';

export const sesQuotaCommand: Command = async ({ platform }) => {
  const sesSendBudget = new SesSendBudget(platform.table);
  const { sesAccount } = buildSesPace(platform.config, { sesSendBudget });
  return sesQuotaReport({ sesAccount, sesSendBudget, configuredRate: platform.config.sesMaxSendRate, now: Date.now() });
};
