/** Port: the mail provider's account, its quota and state (SES in AWS: shared/adapters/aws/ses-account.ts). */

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

/** The mail provider's account (SES: GetAccount). */
export interface MailProviderAccount {
  get(): Promise<SesAccountState>;
}
