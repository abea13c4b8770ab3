/**
 * A ClientRequestToken (DynamoDB's TransactWriteItems: at most 36 characters) naming exactly these records:
 * the same records always give the same token, so a write retried for them (a stream batch delivered
 * again) changes nothing twice within DynamoDB's 10-minute idempotency window.
 */
import { createHash } from 'node:crypto';

export function usageToken(eventIds: readonly string[]): string {
  return createHash('sha256').update(eventIds.join('\n')).digest('base64url').slice(0, 36);
}
