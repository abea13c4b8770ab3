/**
 * Recipients a door already checked against the suppression lists, handed to the send so it does not read
 * them again (the SMTP relay: RCPT TO reads each recipient's suppressions to answer 550 5.1.1 at once, and
 * the message's send at DATA would read them again).
 */

/** Recipients checked against the account's suppression list and the one of `tenantId`, found on neither. */
export interface ClearedRecipients {
  tenantId: string | null;
  addresses: readonly string[];
}

/**
 * How old a check may be and still stand for the send: a suppression added since is not seen by that
 * message (RCPT TO to the end of DATA is milliseconds for a client that sends without pausing).
 */
export const CLEARED_RECIPIENTS_MAX_AGE_MS = 60_000;
