/** What a function may reach: the resources, the access to each, and a grant (the two together). */
import type { BucketId, TopicId } from './resources';
import type { QueueId } from './queues';

export type Resource =
  | { kind: 'table' }
  | { kind: 'queue'; id: QueueId }
  | { kind: 'topic'; id: TopicId }
  | { kind: 'bucket'; id: BucketId }
  | { kind: 'ses' }
  | { kind: 'scheduler' }
  | { kind: 'secretsKey' }
  /** Amazon Route 53 hosted zones of the stack's account (DNS apply with the service's own credentials). */
  | { kind: 'route53' }
  /** ACM public certificates of the stack's account: hosted MTA-STS policy hosts (docs/deliverability.md). */
  | { kind: 'certificates' }
  /** API Gateway custom domain names of the stack's account and their API mappings: hosted MTA-STS policy hosts. */
  | { kind: 'apiDomains' };

/** Access a function needs to a resource; CDK turns these into least-privilege grants. */
export type Access =
  | 'read'
  | 'readWrite'
  | 'send'
  | 'consume'
  | 'publish'
  | 'sendEmail'
  /** SES: GetAccount (the send quota and whether the account sends); SES has no resource for it ("*"). */
  | 'readAccount'
  /** SES: create, read, delete and configure (BYODKIM, MAIL FROM) the account's email identities. */
  | 'manageIdentities'
  /** SES: read the account's email identities (GetEmailIdentity: whether SES has verified a domain). */
  | 'readIdentities'
  /**
   * SES: create, read and delete SES tenants and associate them with the account's identities and our
   * configuration set (docs/ses-tenants.md).
   */
  | 'manageTenants'
  /**
   * SES: what manageTenants allows, plus listing the account's SES tenants and a tenant's resources
   * (the reconciler's SES tenants sweep, docs/ses-tenants.md).
   */
  | 'sweepTenants'
  | 'schedule'
  | 'encrypt'
  | 'decrypt'
  | 'encryptDecrypt'
  /** Table: UpdateItem only (no reads, puts or deletes), e.g. adding to counters. */
  | 'update'
  /** Table: GetItem and BatchGetItem of the table's items by key (no Query, Scan or index), e.g. reading a counter. */
  | 'getItems'
  /**
   * Route 53: find hosted zones by name, read and UPSERT record sets, follow changes
   * (ListHostedZonesByName, ListResourceRecordSets, ChangeResourceRecordSets, GetChange).
   */
  | 'manageRecords'
  /** ACM: request, describe and delete public certificates (RequestCertificate, DescribeCertificate, DeleteCertificate). */
  | 'manageCertificates'
  /**
   * API Gateway: create, read and delete regional custom domain names and their API mappings
   * (CreateDomainName, GetDomainName, DeleteDomainName, CreateApiMapping, GetApiMappings, DeleteApiMapping).
   */
  | 'manageApiDomains';

export interface Grant {
  resource: Resource;
  access: Access;
}
