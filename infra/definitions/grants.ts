/**
 * The grants the functions' lists are made of, by name: each a resource and the access to it (./access.ts),
 * so a list reads as what the function may do (`tableReadWrite, sendsTo('webhookEvents')`). CDK turns each
 * into least-privilege IAM statements (infra/constructs/grants.ts).
 */
import type { Grant } from './access';
import type { QueueId } from './queues';

/** The table: reads only (GetItem, Query, ...). */
export const tableRead: Grant = { resource: { kind: 'table' }, access: 'read' };
/** The table: reads and writes. */
export const tableReadWrite: Grant = { resource: { kind: 'table' }, access: 'readWrite' };
/** The table: UpdateItem only (no reads, puts or deletes), e.g. adding to counters. */
export const tableUpdate: Grant = { resource: { kind: 'table' }, access: 'update' };
/** Items read by key only (GetItem, BatchGetItem on the table, no index): an account's endpoint counter before publishing its events. */
export const tableGetItems: Grant = { resource: { kind: 'table' }, access: 'getItems' };

/** Sends messages to the queue. */
export const sendsTo = (id: QueueId): Grant => ({ resource: { kind: 'queue', id }, access: 'send' });
/** Receives and deletes the queue's messages (the queue's worker). */
export const consumes = (id: QueueId): Grant => ({ resource: { kind: 'queue', id }, access: 'consume' });

/** The mail bucket (bodies, attachments, raw messages): reads only. */
export const mailBucketRead: Grant = { resource: { kind: 'bucket', id: 'mail' }, access: 'read' };
/** The mail bucket: reads and writes. */
export const mailBucketReadWrite: Grant = { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' };

/** One-time schedules in the schedule group (scheduled sends, automation delays and wait timeouts). */
export const oneTimeSchedules: Grant = { resource: { kind: 'scheduler' }, access: 'schedule' };

/** The key of stored secrets: seal only. */
export const secretsKeyEncrypt: Grant = { resource: { kind: 'secretsKey' }, access: 'encrypt' };
/** The key of stored secrets: open only. */
export const secretsKeyDecrypt: Grant = { resource: { kind: 'secretsKey' }, access: 'decrypt' };
/** The key of stored secrets: seal and open. */
export const secretsKeyEncryptDecrypt: Grant = { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' };

/** SES: send email. */
export const sesSendEmail: Grant = { resource: { kind: 'ses' }, access: 'sendEmail' };
/** SES: GetAccount (the send quota and whether the account sends). */
export const sesReadAccount: Grant = { resource: { kind: 'ses' }, access: 'readAccount' };
/** SES: create, read, delete and configure the account's email identities. */
export const sesManageIdentities: Grant = { resource: { kind: 'ses' }, access: 'manageIdentities' };
/** SES: read the account's email identities. */
export const sesReadIdentities: Grant = { resource: { kind: 'ses' }, access: 'readIdentities' };
/** SES: create, read and delete SES tenants and their associations. */
export const sesManageTenants: Grant = { resource: { kind: 'ses' }, access: 'manageTenants' };
/** SES: what sesManageTenants allows, plus listing SES tenants and their resources (the reconciler's sweep). */
export const sesSweepTenants: Grant = { resource: { kind: 'ses' }, access: 'sweepTenants' };

/** Route 53: find the account's hosted zones and write their record sets (DNS apply). */
export const route53Records: Grant = { resource: { kind: 'route53' }, access: 'manageRecords' };

/** ACM: request, describe and delete public certificates (hosted MTA-STS policy hosts). */
export const acmCertificates: Grant = { resource: { kind: 'certificates' }, access: 'manageCertificates' };
/** API Gateway: custom domain names and their API mappings (hosted MTA-STS policy hosts). */
export const apiGatewayDomainNames: Grant = { resource: { kind: 'apiDomains' }, access: 'manageApiDomains' };
