import { Stack } from 'aws-cdk-lib';
import { tlsRequiredConfigurationSet } from '#shared/adapters/aws/ses-configuration-sets';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ENV } from '#shared/config/config';
import {
  BUCKETS,
  CONFIGURATION_SET,
  QUEUES,
  SCHEDULE_GROUP,
  SECRETS_KEY,
  TABLE,
  TOPICS,
  type Access,
  type BucketId,
  type Grant,
  type QueueId,
  type TopicId,
} from '../definitions';
import { acknowledgeWildcardActions, acknowledgeWildcardResources } from './nag';
import type { Scheduling } from './scheduling';

/** The constructs a definition's grants can refer to. */
export interface ServiceResources {
  table: dynamodb.ITable;
  queues: Record<QueueId, sqs.IQueue>;
  topics: Record<TopicId, sns.ITopic>;
  buckets: Record<BucketId, s3.IBucket>;
  configurationSetName: string;
  scheduling: Scheduling;
  secretsKey: kms.IKey;
}

/** SES sending actions: SendRawEmail for MIME built by the worker, SendEmail for SESv2 SendEmail. */
export const SES_SEND_ACTIONS = ['ses:SendRawEmail', 'ses:SendEmail'];
/** SES GetAccount (`readAccount`): the send quota and account state; it has no resource-level permission ("*"). */
export const SES_ACCOUNT_READ_ACTIONS = ['ses:GetAccount'];
/** SES identity reads (`readIdentities`): whether SES has verified a domain, on the account's identities only. */
export const SES_IDENTITY_READ_ACTIONS = ['ses:GetEmailIdentity'];
/** SES identity management (`manageIdentities`), on the account's identities only. */
export const SES_IDENTITY_ACTIONS = [
  'ses:CreateEmailIdentity',
  'ses:GetEmailIdentity',
  'ses:DeleteEmailIdentity',
  'ses:PutEmailIdentityDkimSigningAttributes',
  'ses:PutEmailIdentityMailFromAttributes',
  'ses:PutEmailIdentityFeedbackAttributes',
];
/**
 * SES tenants (`manageTenants`): CreateTenant, GetTenant, DeleteTenant and the resource associations, on
 * the account's tenants, identities and our configuration set only.
 */
export const SES_TENANT_ACTIONS = [
  'ses:CreateTenant',
  'ses:GetTenant',
  'ses:DeleteTenant',
  'ses:CreateTenantResourceAssociation',
  'ses:DeleteTenantResourceAssociation',
];
/**
 * The reconciler's SES tenants sweep (`sweepTenants`), beside SES_TENANT_ACTIONS: a tenant's resources
 * (on the account's tenants) and the list of tenants, which names no resource (the one statement on "*").
 */
export const SES_TENANT_SWEEP_ACTIONS = ['ses:ListTenantResources'];
export const SES_TENANT_LIST_ACTIONS = ['ses:ListTenants'];
/**
 * Route 53 (`manageRecords`, DNS apply with the function's role): record sets of the account's hosted
 * zones, and the changes made to them. ListHostedZonesByName has no resource-level permission: it is
 * the one statement on "*" (docs/domains.md, "DNS apply").
 */
export const ROUTE53_ZONE_ACTIONS = ['route53:ListResourceRecordSets', 'route53:ChangeResourceRecordSets'];
export const ROUTE53_CHANGE_ACTIONS = ['route53:GetChange'];
export const ROUTE53_LIST_ACTIONS = ['route53:ListHostedZonesByName'];
/**
 * ACM (`manageCertificates`): the public certificates of hosted MTA-STS policy hosts. RequestCertificate has
 * no resource-level permission (Resource "*", Service Authorization Reference, AWS Certificate Manager): its
 * condition keys hold it to DNS-validated, non-exportable certificates whose every name is an MTA-STS policy
 * host (HOSTED_HOST_REQUEST_CONDITIONS); describe and delete are on the account's certificates of the region.
 */
export const ACM_REQUEST_ACTIONS = ['acm:RequestCertificate'];
export const ACM_CERTIFICATE_ACTIONS = ['acm:DescribeCertificate', 'acm:DeleteCertificate'];
/**
 * The host names whose certificates and custom domain names the grants allow: `mta-sts.<policy domain>`
 * (RFC 8461 section 3.3), the policy domain being a receiving subdomain `inbound.<domain>` (docs/inbound.md),
 * so `mta-sts.inbound.<domain>` (docs/deliverability.md, "Hosted MTA-STS policy"); and link domains
 * `links.<domain>` (docs/tracking.md, "Link domains").
 */
export const HOSTED_HOST_PATTERNS = ['mta-sts.inbound.*', 'links.*'];
/**
 * The conditions of RequestCertificate (https://docs.aws.amazon.com/acm/latest/userguide/acm-conditions.html;
 * keys and defaults as in the Service Authorization Reference):
 * - `acm:ValidationMethod` DNS: the key defaults to EMAIL when the request names no method, so only an
 *   explicit DNS validation passes;
 * - `acm:DomainNames` (multivalued: the DomainName and every SubjectAlternativeName) ForAllValues like
 *   one of HOSTED_HOST_PATTERNS, so not one name of the certificate may be another host (ForAnyValue would let
 *   `www.<domain>` ride along with an `mta-sts.` name); and `Null` false, since ForAllValues holds for a
 *   request without the key (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html);
 * - `acm:Export` not ENABLED: no exportable (charged, private key leaving ACM) certificate; a negated
 *   operator holds when the request does not carry the key.
 */
export const HOSTED_HOST_REQUEST_CONDITIONS = {
  StringEquals: { 'acm:ValidationMethod': 'DNS' },
  'ForAllValues:StringLike': { 'acm:DomainNames': HOSTED_HOST_PATTERNS },
  Null: { 'acm:DomainNames': 'false' },
  StringNotEquals: { 'acm:Export': 'ENABLED' },
};
/**
 * API Gateway (`manageApiDomains`): API Gateway's IAM actions are the HTTP methods of its management API on
 * the resource's path, `arn:<partition>:apigateway:<region>::<path>` with no account (Service Authorization
 * Reference, Amazon API Gateway Management V2, resource types DomainNames, DomainName, ApiMappings,
 * ApiMapping):
 * - CreateDomainName is POST on the collection `/domainnames` (the name being created is in no ARN and no
 *   condition key, so IAM cannot hold it to mta-sts names: see API_DOMAIN_CREATE_CONDITIONS), with no
 *   permission of ACM (API Gateway reads the certificate with its own service-linked role) and, without
 *   mutual TLS, no apigateway:AddCertificateToDomain;
 * - CreateApiMapping is POST on `/domainnames/<name>/apimappings`, GetApiMappings GET on it;
 * - GetDomainName / DeleteDomainName are GET / DELETE on `/domainnames/<name>`, DeleteApiMapping DELETE on
 *   `/domainnames/<name>/apimappings/<id>`.
 */
export const API_DOMAIN_CREATE_ACTIONS = ['apigateway:POST'];
export const API_DOMAIN_READ_DELETE_ACTIONS = ['apigateway:GET', 'apigateway:DELETE'];
/**
 * What IAM can hold CreateDomainName to (the Service Authorization Reference's condition keys of the
 * DomainNames type): regional endpoints, TLS 1.2, no mutual TLS. ForAllValues holds when AWS does not
 * supply a key, so these only ever refuse another value; the truststore key must be absent.
 */
export const API_DOMAIN_CREATE_CONDITIONS = {
  'ForAllValues:StringEquals': { 'apigateway:Request/EndpointType': ['REGIONAL'], 'apigateway:Request/SecurityPolicy': ['TLS_1_2'] },
  Null: { 'apigateway:Request/MtlsTrustStoreUri': 'true' },
};
/** Table actions of `update` access: add to counters without reading, putting or deleting items. */
export const TABLE_UPDATE_ACTIONS = ['dynamodb:UpdateItem'];
/** Table actions of `getItems` access: read items by key, on the table only. */
export const TABLE_GET_ITEMS_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem'];
/** Schedule-level actions a function with `schedule` access gets, on the group's schedules only. */
export const SCHEDULER_ACTIONS = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
  'scheduler:GetSchedule',
];

/**
 * KMS actions per access to the secrets key. Secrets are sealed with KMS Encrypt directly (no envelope
 * encryption, see shared/adapters/aws/kms-secret-box.ts), so no GenerateDataKey and no ReEncrypt.
 */
export const SECRETS_KEY_ACTIONS: Partial<Record<Access, string[]>> = {
  encrypt: ['kms:Encrypt'],
  decrypt: ['kms:Decrypt'],
  encryptDecrypt: ['kms:Encrypt', 'kms:Decrypt'],
};

/**
 * Turns a definition's grants into least-privilege IAM grants on `grantee` and returns the
 * environment variables that carry the granted resources' names/URLs/ARNs. Works for any
 * grantee (Lambda functions now, the SMTP containers' task roles later).
 *
 * A function gets only what its definition lists; an access that makes no sense for a resource
 * kind fails the synthesis.
 */
export function grantAccess(
  scope: Construct,
  grantee: iam.IGrantable,
  grants: readonly Grant[],
  resources: ServiceResources,
): Record<string, string> {
  const env: Record<string, string> = {};
  const stack = Stack.of(scope);

  for (const { resource, access } of grants) {
    const invalid = (): Error =>
      new Error(`Access "${access}" is not valid on a ${resource.kind}${'id' in resource ? ` ("${resource.id}")` : ''}`);
    switch (resource.kind) {
      case 'table': {
        const table = resources.table;
        if (access === 'read') table.grantReadData(grantee);
        else if (access === 'readWrite') table.grantReadWriteData(grantee);
        // UpdateItem alone (it also authorises Update actions inside TransactWriteItems), on the table only:
        // not table.grant, which adds <table>/index/* (UpdateItem has no meaning on an index).
        else if (access === 'update') iam.Grant.addToPrincipal({ grantee, actions: TABLE_UPDATE_ACTIONS, resourceArns: [table.tableArn] });
        else if (access === 'getItems')
          iam.Grant.addToPrincipal({ grantee, actions: TABLE_GET_ITEMS_ACTIONS, resourceArns: [table.tableArn] });
        else throw invalid();
        if (access !== 'update' && access !== 'getItems') {
          acknowledgeWildcardResources(grantee, [`${table.tableArn}/index/*`], TABLE_INDEXES_REASON);
        }
        env[TABLE.envVar] = table.tableName;
        break;
      }
      case 'queue': {
        const queue = resources.queues[resource.id];
        if (access === 'send') queue.grantSendMessages(grantee);
        else if (access === 'consume') queue.grantConsumeMessages(grantee);
        else throw invalid();
        env[QUEUES[resource.id].envVar] = queue.queueUrl;
        break;
      }
      case 'topic': {
        const topic = resources.topics[resource.id];
        if (access === 'publish') topic.grantPublish(grantee);
        else throw invalid();
        env[TOPICS[resource.id].envVar] = topic.topicArn;
        break;
      }
      case 'bucket': {
        const bucket = resources.buckets[resource.id];
        if (access === 'read') bucket.grantRead(grantee);
        else if (access === 'readWrite') bucket.grantReadWrite(grantee);
        else throw invalid();
        acknowledgeWildcardResources(grantee, [bucket.arnForObjects('*')], BUCKET_OBJECTS_REASON);
        acknowledgeWildcardActions(grantee, BUCKET_READ_WILDCARDS, BUCKET_ACTIONS_REASON);
        if (access === 'readWrite') acknowledgeWildcardActions(grantee, BUCKET_WRITE_WILDCARDS, BUCKET_ACTIONS_REASON);
        env[BUCKETS[resource.id].envVar] = bucket.bucketName;
        break;
      }
      case 'ses': {
        const tenantsArn = stack.formatArn({ service: 'ses', resource: 'tenant', resourceName: '*' });
        const identitiesArn = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
        const configurationSetArn = stack.formatArn({
          service: 'ses',
          resource: 'configuration-set',
          resourceName: resources.configurationSetName,
        });
        if (access === 'manageTenants' || access === 'sweepTenants') {
          iam.Grant.addToPrincipal({
            grantee,
            actions: SES_TENANT_ACTIONS,
            // An association is authorised against the tenant and the resource associated with it.
            // Both configuration sets are associated with every SES tenant (shared/usecases/ses-tenants/ses-tenant-links.ts).
            resourceArns: [
              tenantsArn,
              identitiesArn,
              configurationSetArn,
              stack.formatArn({
                service: 'ses',
                resource: 'configuration-set',
                resourceName: tlsRequiredConfigurationSet(resources.configurationSetName),
              }),
            ],
          });
          acknowledgeWildcardResources(grantee, [tenantsArn], SES_TENANTS_REASON);
          acknowledgeWildcardResources(grantee, [identitiesArn], SES_IDENTITIES_REASON);
          if (access === 'sweepTenants') {
            iam.Grant.addToPrincipal({ grantee, actions: SES_TENANT_SWEEP_ACTIONS, resourceArns: [tenantsArn] });
            iam.Grant.addToPrincipal({ grantee, actions: SES_TENANT_LIST_ACTIONS, resourceArns: ['*'] });
            acknowledgeWildcardResources(
              grantee,
              ['*'],
              'ses:ListTenants has no resource-level permission: AWS requires Resource "*" (Service Authorization Reference, Amazon SES). The reconciler lists tenants to sweep those the table no longer has.',
            );
          }
          // Resource ARNs are built from the account and the configuration set's name.
          env[ENV.awsAccountId] = stack.account;
          env[CONFIGURATION_SET.envVar] = resources.configurationSetName;
          break;
        }
        if (access === 'manageIdentities' || access === 'readIdentities') {
          iam.Grant.addToPrincipal({
            grantee,
            actions: access === 'manageIdentities' ? SES_IDENTITY_ACTIONS : SES_IDENTITY_READ_ACTIONS,
            resourceArns: [identitiesArn],
          });
          acknowledgeWildcardResources(grantee, [identitiesArn], SES_IDENTITIES_REASON);
          break;
        }
        if (access === 'readAccount') {
          iam.Grant.addToPrincipal({ grantee, actions: SES_ACCOUNT_READ_ACTIONS, resourceArns: ['*'] });
          acknowledgeWildcardResources(
            grantee,
            ['*'],
            'ses:GetAccount (the send quota and sending state) has no resource-level permission: AWS requires Resource "*" (Service Authorization Reference, Amazon SES).',
          );
          break;
        }
        if (access !== 'sendEmail') throw invalid();
        iam.Grant.addToPrincipal({
          grantee,
          actions: SES_SEND_ACTIONS,
          // SES authorises a send against the sending identity, the configuration set and (TenantName) the tenant used.
          resourceArns: [
            identitiesArn,
            configurationSetArn,
            // Domains with tls_mode enforced send through the TLS-required twin.
            stack.formatArn({
              service: 'ses',
              resource: 'configuration-set',
              resourceName: tlsRequiredConfigurationSet(resources.configurationSetName),
            }),
            tenantsArn,
          ],
        });
        acknowledgeWildcardResources(grantee, [identitiesArn], SES_IDENTITIES_REASON);
        acknowledgeWildcardResources(grantee, [tenantsArn], SES_TENANTS_REASON);
        env[CONFIGURATION_SET.envVar] = resources.configurationSetName;
        break;
      }
      case 'scheduler': {
        if (access !== 'schedule') throw invalid();
        const { scheduling } = resources;
        iam.Grant.addToPrincipal({ grantee, actions: SCHEDULER_ACTIONS, resourceArns: [scheduling.schedulesArn] });
        acknowledgeWildcardResources(
          grantee,
          [scheduling.schedulesArn],
          "One-time schedules are created at run time, one per scheduled send or automation wait, with generated names: the grant is every schedule of this stack's group and no other group.",
        );
        iam.Grant.addToPrincipal({
          grantee,
          actions: ['iam:PassRole'],
          resourceArns: [scheduling.role.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        });
        env[SCHEDULE_GROUP.envVar] = scheduling.group.scheduleGroupName;
        env[SCHEDULE_GROUP.roleEnvVar] = scheduling.role.roleArn;
        for (const target of scheduling.targetQueues) env[target.arnEnvVar] = target.queue.queueArn;
        break;
      }
      case 'secretsKey': {
        const actions = SECRETS_KEY_ACTIONS[access];
        if (!actions) throw invalid();
        // Exactly these actions (CDK's grantEncrypt would add ReEncrypt* and GenerateDataKey*), on this key only.
        iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [resources.secretsKey.keyArn] });
        env[SECRETS_KEY.envVar] = resources.secretsKey.keyArn;
        break;
      }
      case 'route53': {
        if (access !== 'manageRecords') throw invalid();
        // Route 53 is global: its ARNs name neither a region nor an account.
        const arn = (resource: string) => stack.formatArn({ service: 'route53', region: '', account: '', resource, resourceName: '*' });
        iam.Grant.addToPrincipal({ grantee, actions: ROUTE53_ZONE_ACTIONS, resourceArns: [arn('hostedzone')] });
        iam.Grant.addToPrincipal({ grantee, actions: ROUTE53_CHANGE_ACTIONS, resourceArns: [arn('change')] });
        iam.Grant.addToPrincipal({ grantee, actions: ROUTE53_LIST_ACTIONS, resourceArns: ['*'] });
        acknowledgeWildcardResources(
          grantee,
          [arn('hostedzone'), arn('change')],
          "DNS apply (docs/domains.md) writes the records of a domain into the customer's own hosted zone, found at run time by name, and waits on the change Route 53 returns (its id is generated): neither is known when the stack is deployed.",
        );
        acknowledgeWildcardResources(
          grantee,
          ['*'],
          'route53:ListHostedZonesByName (finding the customer\'s zone) has no resource-level permission: AWS requires Resource "*" (Service Authorization Reference, Amazon Route 53).',
        );
        break;
      }
      case 'certificates': {
        if (access !== 'manageCertificates') throw invalid();
        iam.Grant.addToPrincipal({
          grantee,
          actions: ACM_REQUEST_ACTIONS,
          resourceArns: ['*'],
          conditions: HOSTED_HOST_REQUEST_CONDITIONS,
        });
        const certificates = stack.formatArn({ service: 'acm', resource: 'certificate', resourceName: '*' });
        iam.Grant.addToPrincipal({ grantee, actions: ACM_CERTIFICATE_ACTIONS, resourceArns: [certificates] });
        acknowledgeWildcardResources(
          grantee,
          ['*'],
          `acm:RequestCertificate has no resource-level permission: AWS requires Resource "*" (Service Authorization Reference, AWS Certificate Manager); its conditions allow DNS-validated, non-exportable certificates whose every name is ${HOSTED_HOST_PATTERNS.join(' or ')} only.`,
        );
        acknowledgeWildcardResources(
          grantee,
          [certificates],
          "Hosted MTA-STS policy hosts and link domains get a certificate each at run time (docs/deliverability.md, docs/tracking.md): its id is ACM's, unknown when the stack is deployed.",
        );
        break;
      }
      case 'apiDomains': {
        if (access !== 'manageApiDomains') throw invalid();
        // API Gateway's ARNs name no account: arn:<partition>:apigateway:<region>::<path>.
        const path = (resource: string) => `arn:${stack.partition}:apigateway:${stack.region}::${resource}`;
        const hosts = HOSTED_HOST_PATTERNS.map((pattern) => `/domainnames/${pattern}`);
        const hostResources = hosts.flatMap((host) => [path(host), path(`${host}/apimappings`), path(`${host}/apimappings/*`)]);
        iam.Grant.addToPrincipal({
          grantee,
          actions: API_DOMAIN_CREATE_ACTIONS,
          resourceArns: [path('/domainnames')],
          conditions: API_DOMAIN_CREATE_CONDITIONS,
        });
        iam.Grant.addToPrincipal({
          grantee,
          actions: API_DOMAIN_CREATE_ACTIONS,
          resourceArns: hosts.map((host) => path(`${host}/apimappings`)),
        });
        iam.Grant.addToPrincipal({ grantee, actions: API_DOMAIN_READ_DELETE_ACTIONS, resourceArns: hostResources });
        acknowledgeWildcardResources(
          grantee,
          hostResources,
          `Hosted MTA-STS policy hosts (mta-sts.inbound.<customer domain>) and link domains (links.<customer domain>) are created at run time, one per domain that asks (docs/deliverability.md, docs/tracking.md): the grant is the custom domain names ${HOSTED_HOST_PATTERNS.join(' and ')} and their API mappings, nothing else of API Gateway.`,
        );
        break;
      }
      default:
        assertNever(resource);
    }
  }
  return env;
}

/** Why each wildcard of a grant is acceptable (cdk-nag IAM5, acknowledged per wildcard: infra/constructs/nag.ts). */
const TABLE_INDEXES_REASON =
  "Queries on the global secondary indexes (TABLE.globalSecondaryIndexes) are authorised on the index ARN: CDK's table grant names <table ARN>/index/*, the indexes of this one table and nothing else.";
const BUCKET_OBJECTS_REASON = 'Object keys are made at run time (per account, email, upload): the grant is the objects of this one bucket.';
/** Wildcard actions of CDK's grantRead and, beside them, of grantReadWrite. */
const BUCKET_READ_WILDCARDS = ['s3:GetObject*', 's3:GetBucket*', 's3:List*'];
const BUCKET_WRITE_WILDCARDS = ['s3:DeleteObject*', 's3:Abort*'];
const BUCKET_ACTIONS_REASON =
  "CDK's bucket read (GetObject*, GetBucket*, List*) and read-write (DeleteObject*, Abort*) action groups, on this one bucket and its objects: reads of objects and their metadata, deletes, and aborting the multipart uploads the SDK makes for large attachments; no policy, ACL or configuration writes.";
const SES_IDENTITIES_REASON =
  "Sending domains are the customers', added at run time (POST /domains): the grant is every SES identity of this account and region; which domain an API key may use is checked by the product (docs/domains.md).";
const SES_TENANTS_REASON =
  'SES tenants are created at run time, one per tenant of the product (docs/tenants.md): the grant is every SES tenant of this account and region.';

function assertNever(value: never): never {
  throw new Error(`Unknown resource ${JSON.stringify(value)}`);
}
