/** The service's one DynamoDB table: its keys, indexes, TTL and stream. */
import { ENV } from '#shared/config/config';

export interface TableDefinition {
  /** Logical id in CDK; physical name locally. */
  name: string;
  partitionKey: string;
  sortKey: string;
  /** `projection` defaults to ALL; KEYS_ONLY indexes carry the table's keys and their own. */
  globalSecondaryIndexes: { indexName: string; partitionKey: string; sortKey: string; projection?: 'ALL' | 'KEYS_ONLY' }[];
  timeToLiveAttribute: string;
  envVar: string;
  /**
   * DynamoDB Streams view of the table (unset: no stream). It feeds the transactional outbox and the tenant stats (old images):
   * STREAM_WORKERS read it (Lambda event source mappings in AWS, localstack/cloud/streams/stream-poller.ts locally).
   */
  stream?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY' | 'OLD_IMAGE';
}

export const TABLE: TableDefinition = {
  name: 'mailservice-main',
  partitionKey: 'PK',
  sortKey: 'SK',
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    // The due index (shared/adapters/store/due-index.ts): unfinished work by due time, for the reconciler. Keys
    // only: an email's body is never copied into it, and the reconciler reads each item before acting.
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'KEYS_ONLY' },
    // The automation runs of a user (RUN items' GSI3PK RUNS#<acc>#<subject>), a pull webhook endpoint's feed (WEBHOOK#<wh>#FEED),
    // and the tenant emails of before GSI5.
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    // The account's email listing (shared/adapters/store/email-listing.ts): ACCOUNT#<acc>#EMAILS#<shard> / <msg id>.
    // Keys only: the entry is written once, when the email is accepted; its status writes never touch it
    // (docs/benchmarks.md, "The partition model"). Emails accepted before it are listed from GSI1.
    { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', projection: 'KEYS_ONLY' },
    // The tenant emails index (shared/adapters/store/email-listing.ts): sparse, only tenant emails carry GSI5PK
    // (TENANT#<ten id>#EMAILS#<shard>), so GET /emails?tenant= reads one tenant's emails, newest first. Keys
    // only, as GSI4; tenant emails accepted before it are listed from GSI3.
    { indexName: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK', projection: 'KEYS_ONLY' },
  ],
  timeToLiveAttribute: 'ttl',
  envVar: ENV.tableName,
  stream: 'NEW_AND_OLD_IMAGES',
};
