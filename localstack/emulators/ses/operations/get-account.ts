/**
 * GetAccount (GET /v2/email/account): the account's quota, sandbox and sending switch (../account-limits.ts)
 * with its SuppressionAttributes (../suppression-list.ts):
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_GetAccount.html
 */
import type { AccountLimits } from '../account-limits';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import type { Json } from '../validate';

/** GetAccount's answer but its SuppressionAttributes (`/_local/account` answers it too: ./local-account.ts). */
export function accountView(account: AccountLimits): Json {
  return {
    DedicatedIpAutoWarmupEnabled: false,
    EnforcementStatus: account.suspended ? 'SHUTDOWN' : 'HEALTHY',
    ProductionAccessEnabled: !account.sandbox,
    SendingEnabled: account.sendingEnabled && !account.suspended,
    // -1 means unlimited for Max24HourSend (API_SendQuota); the emulator also answers -1 for an unlimited rate (its own choice).
    SendQuota: {
      Max24HourSend: account.max24HourSend ?? -1,
      MaxSendRate: account.maxSendRate ?? -1,
      SentLast24Hours: account.sentLast24Hours(),
    },
  };
}

export function getAccount(state: SesState, _request: SesRequest): OperationResult {
  return { body: { ...accountView(state.account), SuppressionAttributes: state.suppression.accountAttributes() } };
}
