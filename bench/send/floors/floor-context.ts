/** What every floor issues its calls with: the product's clients, key builders and transaction, and the bench's fixtures. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';

export interface FloorContext {
  tableName: string;
  doc: DynamoDBDocumentClient;
  sqs: SQSClient;
  /** The checkout's shared/adapters/store/keys `keys`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  keys: any;
  /** The checkout's shared/adapters/store/table `transactWrite` (retries TransactionConflict). */
  transactWrite(table: unknown, items: unknown[]): Promise<unknown>;
  /** The bench account's API key hash, and the account. */
  keyHash: string;
  accountId: string;
  domainName: string;
  recipient(n: number): string;
  /** A new email item for send `n` (email-copies.ts). */
  emailItem(n: number, withDeferredUsage: boolean): Record<string, unknown>;
}
