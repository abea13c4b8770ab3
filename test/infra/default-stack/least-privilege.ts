/**
 * Least privilege: every function's role allows what its definition's grants list and nothing more.
 * Expectations are derived from infra/definitions (each function's grants).
 */
import {
  API_GROUPS,
  QUEUES,
  SCHEDULED_TASKS,
  STREAM_WORKERS,
  WORKERS,
  type Access,
  type Grant,
  type QueueId,
  type Resource,
} from '#infra/definitions';
import {
  ACM_CERTIFICATE_ACTIONS,
  ACM_REQUEST_ACTIONS,
  API_DOMAIN_CREATE_ACTIONS,
  API_DOMAIN_CREATE_CONDITIONS,
  API_DOMAIN_READ_DELETE_ACTIONS,
  HOSTED_HOST_REQUEST_CONDITIONS,
  ROUTE53_CHANGE_ACTIONS,
  ROUTE53_LIST_ACTIONS,
  ROUTE53_ZONE_ACTIONS,
  SECRETS_KEY_ACTIONS,
  SES_IDENTITY_ACTIONS,
  SES_IDENTITY_READ_ACTIONS,
  SES_TENANT_ACTIONS,
  SES_TENANT_LIST_ACTIONS,
  SES_ACCOUNT_READ_ACTIONS,
  SES_TENANT_SWEEP_ACTIONS,
  TABLE_UPDATE_ACTIONS,
  TABLE_GET_ITEMS_ACTIONS,
} from '#infra/constructs/grants';
import { ENV } from '#shared/config/config';
import {
  actionsOf,
  functionActions,
  functionEnv,
  functionStatements,
  logicalId,
  resourcesOf,
  streamRelayTableActions,
  type Statement,
  type Synthesised,
  defaultStack,
} from '../helpers';

let s: Synthesised;
beforeAll(() => {
  s = defaultStack();
});
afterAll(() => s?.cleanup());

const definitions = [...API_GROUPS, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS];
const isStreamWorker = (name: string): boolean => STREAM_WORKERS.some((w) => w.name === name);
const tableArn = (): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.table), 'Arn'] });
const streamArn = (): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.table), 'StreamArn'] });
const onFailureArn = (name: string): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.workers.onFailureQueues[name]!), 'Arn'] });
/** Stream event sources need dynamodb:ListStreams, which has no resource-level permission (Resource "*"). */
const isListStreams = (statement: Statement): boolean => actionsOf(statement).every((a) => a === 'dynamodb:ListStreams');
/** Route 53's ListHostedZonesByName has no resource-level permission either (Resource "*"). */
const isListHostedZones = (statement: Statement): boolean => actionsOf(statement).every((a) => ROUTE53_LIST_ACTIONS.includes(a));
/** Nor has SES's ListTenants (Resource "*"). */
const isListTenants = (statement: Statement): boolean => actionsOf(statement).every((a) => SES_TENANT_LIST_ACTIONS.includes(a));
/** Nor has ACM's RequestCertificate (Resource "*", held by its conditions). */
const isRequestCertificate = (statement: Statement): boolean =>
  actionsOf(statement).every((a) => ACM_REQUEST_ACTIONS.includes(a)) && statement.Condition !== undefined;
/** Nor has SES's GetAccount (Resource "*"). */
const isGetAccount = (statement: Statement): boolean => actionsOf(statement).every((a) => SES_ACCOUNT_READ_ACTIONS.includes(a));
const grants = (name: string): Grant[] => definitions.find((d) => d.name === name)!.grants;
const granted = (name: string, kind: Resource['kind'], ...access: Access[]): boolean =>
  grants(name).some((g) => g.resource.kind === kind && (access.length === 0 || access.includes(g.access)));
const queueArn = (id: QueueId): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues[id]), 'Arn'] });

describe.each(definitions.map((d) => d.name))('%s', (name) => {
  test('no wildcard actions and no wildcard resources', () => {
    for (const statement of functionStatements(s.template, s.stack, name)) {
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/^(\*|[a-z0-9-]+:\*)$/);
      if (isStreamWorker(name) && isListStreams(statement)) continue;
      if (granted(name, 'route53', 'manageRecords') && isListHostedZones(statement)) continue;
      if (granted(name, 'ses', 'sweepTenants') && isListTenants(statement)) continue;
      if (granted(name, 'ses', 'readAccount') && isGetAccount(statement)) continue;
      if (granted(name, 'certificates', 'manageCertificates') && isRequestCertificate(statement)) continue;
      expect(resourcesOf(statement)).not.toContain('*');
      expect(statement.Effect).toBe('Allow');
    }
  });

  test('each capability is present exactly when the definition grants it', () => {
    const actions = new Set(functionActions(s.template, s.stack, name));
    const isWorker = WORKERS.some((w) => w.name === name);
    const expectations: [string, boolean][] = [
      ['dynamodb:GetItem', granted(name, 'table', 'read', 'readWrite', 'getItems')],
      ['dynamodb:Query', granted(name, 'table', 'read', 'readWrite')],
      ['dynamodb:PutItem', granted(name, 'table', 'readWrite')],
      ['dynamodb:UpdateItem', granted(name, 'table', 'readWrite', 'update')],
      // A stream worker's event source sends batches it gives up to its on-failure queue (checked below).
      ['sqs:SendMessage', granted(name, 'queue', 'send') || isStreamWorker(name)],
      // A worker's event source needs to consume its queue.
      ['sqs:ReceiveMessage', granted(name, 'queue', 'consume') || isWorker],
      ['sqs:DeleteMessage', granted(name, 'queue', 'consume') || isWorker],
      ['s3:GetObject*', granted(name, 'bucket')],
      ['s3:PutObject', granted(name, 'bucket', 'readWrite')],
      ['s3:DeleteObject*', granted(name, 'bucket', 'readWrite')],
      ['sns:Publish', granted(name, 'topic', 'publish')],
      ['ses:SendRawEmail', granted(name, 'ses', 'sendEmail')],
      ['ses:SendEmail', granted(name, 'ses', 'sendEmail')],
      ...SES_IDENTITY_ACTIONS.map((action): [string, boolean] => [
        action,
        granted(name, 'ses', 'manageIdentities') || (SES_IDENTITY_READ_ACTIONS.includes(action) && granted(name, 'ses', 'readIdentities')),
      ]),
      ...SES_TENANT_ACTIONS.map((action): [string, boolean] => [action, granted(name, 'ses', 'manageTenants', 'sweepTenants')]),
      ...[...SES_TENANT_SWEEP_ACTIONS, ...SES_TENANT_LIST_ACTIONS].map((action): [string, boolean] => [
        action,
        granted(name, 'ses', 'sweepTenants'),
      ]),
      ['scheduler:CreateSchedule', granted(name, 'scheduler')],
      ['iam:PassRole', granted(name, 'scheduler')],
      ['kms:Encrypt', granted(name, 'secretsKey', 'encrypt', 'encryptDecrypt')],
      ['kms:Decrypt', granted(name, 'secretsKey', 'decrypt', 'encryptDecrypt')],
      ...[...ROUTE53_ZONE_ACTIONS, ...ROUTE53_CHANGE_ACTIONS, ...ROUTE53_LIST_ACTIONS].map((action): [string, boolean] => [
        action,
        granted(name, 'route53', 'manageRecords'),
      ]),
      ...[...ACM_REQUEST_ACTIONS, ...ACM_CERTIFICATE_ACTIONS].map((action): [string, boolean] => [
        action,
        granted(name, 'certificates', 'manageCertificates'),
      ]),
      ...[...API_DOMAIN_CREATE_ACTIONS, ...API_DOMAIN_READ_DELETE_ACTIONS].map((action): [string, boolean] => [
        action,
        granted(name, 'apiDomains', 'manageApiDomains'),
      ]),
    ];
    for (const [action, expected] of expectations) {
      expect({ action, allowed: actions.has(action) }).toEqual({ action, allowed: expected });
    }
  });

  test('queue actions only on the queues it is granted', () => {
    const statements = functionStatements(s.template, s.stack, name);
    const sendQueues = grants(name).flatMap((g) => (g.resource.kind === 'queue' && g.access === 'send' ? [queueArn(g.resource.id)] : []));
    const consumeQueues = grants(name).flatMap((g) =>
      g.resource.kind === 'queue' && g.access === 'consume' ? [queueArn(g.resource.id)] : [],
    );
    const worker = WORKERS.find((w) => w.name === name);
    if (worker) consumeQueues.push(queueArn(worker.queue));
    // A stream worker's event source sends batch descriptions to its on-failure queue.
    if (isStreamWorker(name)) sendQueues.push(onFailureArn(name));
    for (const statement of statements) {
      const actions = actionsOf(statement);
      if (actions.includes('sqs:SendMessage')) for (const r of resourcesOf(statement)) expect(sendQueues).toContainEqual(r);
      if (actions.includes('sqs:ReceiveMessage')) for (const r of resourcesOf(statement)) expect(consumeQueues).toContainEqual(r);
    }
  });
});

test('the api-keys Lambda cannot enqueue sends nor call SES', () => {
  const actions = functionActions(s.template, s.stack, 'api-keys');
  expect(actions).not.toContain('sqs:SendMessage');
  expect(actions).not.toContain('ses:SendRawEmail');
  expect(actions).not.toContain('ses:SendEmail');
  expect(actions.filter((a) => a.startsWith('dynamodb:'))).toContain('dynamodb:PutItem');
});

describe('received (inbound) email', () => {
  /** DynamoDB actions of CDK's grantReadData: reads, queries, scans, condition checks, no writes. */
  const TABLE_READ_ACTIONS = [
    'dynamodb:BatchGetItem',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
    'dynamodb:GetItem',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
    'dynamodb:Query',
    'dynamodb:Scan',
  ];

  test('the received-emails API reads the table and the mail bucket, and writes nothing', () => {
    const actions = functionActions(s.template, s.stack, 'received-emails');
    const dynamo = [...new Set(actions.filter((a) => a.startsWith('dynamodb:')))];
    expect(dynamo).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const action of dynamo) expect({ action, read: TABLE_READ_ACTIONS.includes(action) }).toEqual({ action, read: true });
    const s3 = actions.filter((a) => a.startsWith('s3:'));
    expect(s3).toContain('s3:GetObject*');
    for (const action of s3) expect(action).not.toMatch(/^s3:(Put|Delete|Abort|Replicate|Restore)/);
    for (const prefix of ['sqs:', 'sns:', 'ses:', 'kms:', 'scheduler:', 'iam:'])
      expect(actions.filter((a) => a.startsWith(prefix))).toEqual([]);
  });

  test('no function may send to the inbound queue: only the relay task (its MX listener) hands messages over', () => {
    const inbound = JSON.stringify(queueArn('inbound'));
    const senders = definitions.filter((d) =>
      functionStatements(s.template, s.stack, d.name).some(
        (st) => actionsOf(st).includes('sqs:SendMessage') && resourcesOf(st).some((r) => JSON.stringify(r) === inbound),
      ),
    );
    expect(senders.map((d) => d.name)).toEqual([]);
  });
});

test('only the functions granted SES may send, and only with the account identities, the configuration set and the account tenants', () => {
  const sendActions = ['ses:SendRawEmail', 'ses:SendEmail'];
  const senders = definitions
    .filter((d) => functionActions(s.template, s.stack, d.name).some((a) => sendActions.includes(a)))
    .map((d) => d.name);
  expect(senders).toEqual(definitions.filter((d) => granted(d.name, 'ses', 'sendEmail')).map((d) => d.name));
  expect(senders).toEqual(['send-email']);

  // Beside it, only GetAccount (the send quota, readAccount), on "*" as SES requires.
  const sesStatements = functionStatements(s.template, s.stack, 'send-email').filter(
    (st) => actionsOf(st).some((a) => a.startsWith('ses:')) && !isGetAccount(st),
  );
  expect(definitions.filter((d) => functionActions(s.template, s.stack, d.name).includes('ses:GetAccount')).map((d) => d.name)).toEqual([
    'send-email',
  ]);
  expect(actionsOf(sesStatements[0]!).sort()).toEqual([...sendActions].sort());
  expect(sesStatements).toHaveLength(1);
  const arns = JSON.stringify(resourcesOf(sesStatements[0]!));
  // Identities, tenants, the configuration set and its TLS-required twin (domains with tls_mode enforced).
  expect(resourcesOf(sesStatements[0]!)).toHaveLength(4);
  expect(arns).toContain('-tls-required');
  expect(arns).toContain(':identity/*');
  // A send naming an SES tenant (TenantName) is authorised against the tenant as well.
  expect(arns).toContain(':tenant/*');
  expect(arns).toContain(':configuration-set/');
  expect(arns).toContain(JSON.stringify({ Ref: logicalId(s.stack, s.stack.email.configurationSet) }));
});

describe('SES identity management', () => {
  const sesActions = (name: string): string[] => functionActions(s.template, s.stack, name).filter((a) => a.startsWith('ses:'));

  test("only the domains function (and the dashboard's domain pages, which verify) may manage identities, with exactly these actions", () => {
    const changes = SES_IDENTITY_ACTIONS.filter((a) => !SES_IDENTITY_READ_ACTIONS.includes(a));
    const managers = definitions.filter((d) => sesActions(d.name).some((a) => changes.includes(a))).map((d) => d.name);
    expect(managers).toEqual(definitions.filter((d) => granted(d.name, 'ses', 'manageIdentities')).map((d) => d.name));
    expect(managers).toEqual(['domains', 'dashboard-domains']);
    expect([...SES_IDENTITY_ACTIONS].sort()).toEqual(
      [
        'ses:CreateEmailIdentity',
        'ses:DeleteEmailIdentity',
        'ses:GetEmailIdentity',
        'ses:PutEmailIdentityDkimSigningAttributes',
        'ses:PutEmailIdentityFeedbackAttributes',
        'ses:PutEmailIdentityMailFromAttributes',
      ].sort(),
    );
    // domains cannot send; send-email cannot touch identities.
    expect(sesActions('domains').sort()).toEqual([...SES_IDENTITY_ACTIONS, ...SES_TENANT_ACTIONS].sort());
    expect(sesActions('dashboard-domains').sort()).toEqual([...SES_IDENTITY_ACTIONS, ...SES_TENANT_ACTIONS].sort());
    expect(sesActions('dashboard')).toEqual([]);
    expect(sesActions('dashboard-emails')).toEqual([]);
    expect(sesActions('send-email').sort()).toEqual(['ses:GetAccount', 'ses:SendEmail', 'ses:SendRawEmail']);
  });

  test.each(['domains', 'dashboard-domains'])('identity actions of %s are scoped to the account identities of the stack region', (name) => {
    const statements = functionStatements(s.template, s.stack, name).filter((st) =>
      actionsOf(st).some((a) => SES_IDENTITY_ACTIONS.includes(a)),
    );
    expect(statements).toHaveLength(1);
    expect(actionsOf(statements[0]!).sort()).toEqual([...SES_IDENTITY_ACTIONS].sort());
    const resources = resourcesOf(statements[0]!);
    expect(resources).toHaveLength(1);
    const arn = JSON.stringify(resources[0]);
    expect(arn).toContain(':ses:');
    expect(arn).toContain(':identity/*');
    expect(arn).toContain('AWS::Region');
    expect(arn).toContain('AWS::AccountId');
    expect(arn).not.toContain('configuration-set');
  });

  test('beside them only the reconciler reads identities (domains SES was still verifying), GetEmailIdentity alone, on the account identities', () => {
    const readers = definitions.filter((d) => sesActions(d.name).includes('ses:GetEmailIdentity')).map((d) => d.name);
    expect(readers).toEqual(definitions.filter((d) => granted(d.name, 'ses', 'manageIdentities', 'readIdentities')).map((d) => d.name));
    expect(readers).toEqual(['domains', 'dashboard-domains', 'reconciler']);
    expect(SES_IDENTITY_READ_ACTIONS).toEqual(['ses:GetEmailIdentity']);
    const statements = functionStatements(s.template, s.stack, 'reconciler').filter((st) =>
      actionsOf(st).some((a) => SES_IDENTITY_ACTIONS.includes(a)),
    );
    expect(statements).toHaveLength(1);
    expect(actionsOf(statements[0]!)).toEqual(['ses:GetEmailIdentity']);
    const resources = resourcesOf(statements[0]!);
    expect(resources).toHaveLength(1);
    expect(JSON.stringify(resources[0])).toContain(':identity/*');
    expect(JSON.stringify(resources[0])).toContain('AWS::AccountId');
  });
});

describe('Route 53 (DNS apply)', () => {
  const route53Actions = (name: string): string[] => functionActions(s.template, s.stack, name).filter((a) => a.startsWith('route53:'));
  const route53Arn = (resource: string): unknown => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:route53:::${resource}/*`]] });

  test("only the domains function (and the dashboard's domain pages, which apply) may touch Route 53, with exactly the four actions apply uses", () => {
    const writers = definitions.filter((d) => route53Actions(d.name).length > 0).map((d) => d.name);
    expect(writers).toEqual(definitions.filter((d) => granted(d.name, 'route53')).map((d) => d.name));
    expect(writers).toEqual(['domains', 'dashboard-domains']);
    for (const name of writers) {
      expect(route53Actions(name).sort()).toEqual(
        ['route53:ChangeResourceRecordSets', 'route53:GetChange', 'route53:ListHostedZonesByName', 'route53:ListResourceRecordSets'].sort(),
      );
    }
  });

  test.each(['domains', 'dashboard-domains'])(
    '%s: record sets on hosted zones, GetChange on changes, and only ListHostedZonesByName (no resource-level permission) on "*"',
    (name) => {
      const statements = functionStatements(s.template, s.stack, name).filter((st) => actionsOf(st).some((a) => a.startsWith('route53:')));
      expect(statements).toHaveLength(3);
      const byActions = (actions: string[]) =>
        statements.find((st) => JSON.stringify(actionsOf(st).sort()) === JSON.stringify([...actions].sort()));
      expect(resourcesOf(byActions(ROUTE53_ZONE_ACTIONS)!)).toEqual([route53Arn('hostedzone')]);
      expect(resourcesOf(byActions(ROUTE53_CHANGE_ACTIONS)!)).toEqual([route53Arn('change')]);
      expect(resourcesOf(byActions(ROUTE53_LIST_ACTIONS)!)).toEqual(['*']);
      // Nothing that creates or deletes zones, nor touches other Route 53 resources.
      for (const action of route53Actions(name)) expect(action).not.toMatch(/^route53:(Create|Delete|Update|Associate|Disassociate)/);
    },
  );
});

describe('hosted MTA-STS policy hosts and link domains (ACM certificates, API Gateway custom domain names)', () => {
  const hostingActions = (name: string): string[] =>
    functionActions(s.template, s.stack, name).filter((a) => a.startsWith('acm:') || a.startsWith('apigateway:'));
  const apiGatewayArn = (path: string): unknown => ({
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, `::${path}`]],
  });
  const hosts = ['/domainnames/mta-sts.inbound.*', '/domainnames/links.*'];
  const hostArns = hosts.flatMap((host) => [
    apiGatewayArn(host),
    apiGatewayArn(`${host}/apimappings`),
    apiGatewayArn(`${host}/apimappings/*`),
  ]);

  test('only the domain-health task (which takes every provisioning step) may touch ACM or API Gateway, with exactly the six actions provisioning uses', () => {
    expect(
      definitions
        .filter((d) => hostingActions(d.name).length > 0)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['domain-health']);
    for (const name of ['domain-health']) {
      expect(new Set(hostingActions(name))).toEqual(
        new Set([
          'acm:RequestCertificate',
          'acm:DescribeCertificate',
          'acm:DeleteCertificate',
          'apigateway:POST',
          'apigateway:GET',
          'apigateway:DELETE',
        ]),
      );
    }
  });

  test.each(['domain-health'])('%s: each action on exactly its resources and under its conditions', (name) => {
    const statements = functionStatements(s.template, s.stack, name).filter((st) =>
      actionsOf(st).some((a) => a.startsWith('acm:') || a.startsWith('apigateway:')),
    );
    const shapes = statements.map((st) => ({
      actions: actionsOf(st).sort(),
      resources: resourcesOf(st),
      ...(st.Condition ? { condition: st.Condition } : {}),
    }));
    expect(shapes).toEqual(
      expect.arrayContaining([
        { actions: ['acm:RequestCertificate'], resources: ['*'], condition: HOSTED_HOST_REQUEST_CONDITIONS },
        {
          actions: ['acm:DeleteCertificate', 'acm:DescribeCertificate'],
          resources: [
            {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':acm:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':certificate/*'],
              ],
            },
          ],
        },
        { actions: ['apigateway:POST'], resources: [apiGatewayArn('/domainnames')], condition: API_DOMAIN_CREATE_CONDITIONS },
      ]),
    );
    // Unconditioned API Gateway grants: POST only on the mappings of mta-sts and links hosts, GET and DELETE only on those hosts and their mappings.
    const allowedOn = (action: string) => statements.filter((st) => !st.Condition && actionsOf(st).includes(action)).flatMap(resourcesOf);
    expect(new Set(allowedOn('apigateway:POST'))).toEqual(new Set(hosts.map((host) => apiGatewayArn(`${host}/apimappings`))));
    expect(new Set(allowedOn('apigateway:GET'))).toEqual(new Set(hostArns));
    expect(new Set(allowedOn('apigateway:DELETE'))).toEqual(new Set(hostArns));
    expect(statements.every((st) => st.Effect === 'Allow')).toBe(true);
  });
});

describe('SES tenants', () => {
  const sesActions = (name: string): string[] => functionActions(s.template, s.stack, name).filter((a) => a.startsWith('ses:'));

  test("only the tenants and domains functions (and the dashboard's domain pages, which verify) may manage SES tenants, with exactly these actions", () => {
    const managers = definitions.filter((d) => sesActions(d.name).some((a) => SES_TENANT_ACTIONS.includes(a))).map((d) => d.name);
    expect(managers).toEqual(definitions.filter((d) => granted(d.name, 'ses', 'manageTenants', 'sweepTenants')).map((d) => d.name));
    expect(managers).toEqual(['tenants', 'domains', 'dashboard-domains', 'reconciler']);
    // Only the reconciler lists them (its SES tenants sweep).
    expect(
      definitions
        .filter((d) => sesActions(d.name).some((a) => SES_TENANT_LIST_ACTIONS.includes(a) || SES_TENANT_SWEEP_ACTIONS.includes(a)))
        .map((d) => d.name),
    ).toEqual(['reconciler']);
    expect([...SES_TENANT_ACTIONS].sort()).toEqual(
      [
        'ses:CreateTenant',
        'ses:CreateTenantResourceAssociation',
        'ses:DeleteTenant',
        'ses:DeleteTenantResourceAssociation',
        'ses:GetTenant',
      ].sort(),
    );
    // The tenants function manages SES tenants only: it cannot send nor touch identities.
    expect(sesActions('tenants').sort()).toEqual([...SES_TENANT_ACTIONS].sort());
  });

  test('tenant actions are scoped to the account tenants, identities and our two configuration sets; the account id is in the environment', () => {
    for (const name of ['tenants', 'domains', 'dashboard-domains']) {
      const statements = functionStatements(s.template, s.stack, name).filter((st) =>
        actionsOf(st).some((a) => SES_TENANT_ACTIONS.includes(a)),
      );
      expect(statements).toHaveLength(1);
      expect(actionsOf(statements[0]!).sort()).toEqual([...SES_TENANT_ACTIONS].sort());
      const resources = resourcesOf(statements[0]!);
      expect(resources).toHaveLength(4);
      const arns = JSON.stringify(resources);
      expect(arns).toContain('-tls-required');
      expect(arns).toContain(':tenant/*');
      expect(arns).toContain(':identity/*');
      expect(arns).toContain(JSON.stringify({ Ref: logicalId(s.stack, s.stack.email.configurationSet) }));
      expect(arns).toContain('AWS::AccountId');
      expect(functionEnv(s.template, s.stack, name)[ENV.awsAccountId]).toEqual({ Ref: 'AWS::AccountId' });
    }
  });
});

test('every queue of the definitions is consumed by at most its workers', () => {
  for (const id of Object.keys(QUEUES) as QueueId[]) {
    const consumers = definitions
      .filter((d) =>
        functionStatements(s.template, s.stack, d.name).some(
          (st) => actionsOf(st).includes('sqs:ReceiveMessage') && JSON.stringify(resourcesOf(st)).includes(JSON.stringify(queueArn(id))),
        ),
      )
      .map((d) => d.name)
      .sort();
    const expected = definitions
      .filter(
        (d) =>
          WORKERS.some((w) => w.name === d.name && w.queue === id) ||
          d.grants.some((g) => g.resource.kind === 'queue' && g.resource.id === id && g.access === 'consume'),
      )
      .map((d) => d.name)
      .sort();
    expect(consumers).toEqual(expected);
  }
});

describe('the secrets key', () => {
  const keyArn = (): unknown => ({ 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.secretsKey), 'Arn'] });
  const kmsActions = (name: string): string[] => functionActions(s.template, s.stack, name).filter((a) => a.startsWith('kms:'));

  test('only the functions holding secrets get KMS permissions, as the definitions say', () => {
    const users = definitions.filter((d) => kmsActions(d.name).length > 0).map((d) => d.name);
    expect(users).toEqual(definitions.filter((d) => granted(d.name, 'secretsKey')).map((d) => d.name));
    expect(users.sort()).toEqual([
      'dashboard',
      'dashboard-domains',
      'domains',
      'inbound-email',
      'links',
      'migrations',
      'send-email',
      'webhook-delivery',
      'webhooks',
    ]);
  });

  test("domains and the dashboard's domain pages may encrypt and decrypt, and the dashboard (webhook secrets; the OpenID Connect client secret); webhooks and migrations (imports) may only seal; the send worker seals and opens (link keys); the links group, the delivery worker and the inbound worker (a forward's ARC seal: the domain's DKIM key) only open; never GenerateDataKey, ReEncrypt or key administration", () => {
    expect(kmsActions('domains').sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(kmsActions('webhooks')).toEqual(['kms:Encrypt']);
    expect(kmsActions('dashboard-domains').sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(kmsActions('dashboard').sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(kmsActions('migrations')).toEqual(['kms:Encrypt']);
    // The send worker seals the first link key when there is none (docs/tracking.md).
    expect(kmsActions('send-email').sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(kmsActions('links')).toEqual(['kms:Decrypt']);
    expect(kmsActions('webhook-delivery')).toEqual(['kms:Decrypt']);
    expect(kmsActions('inbound-email')).toEqual(['kms:Decrypt']);
    expect(SECRETS_KEY_ACTIONS).toEqual({
      encrypt: ['kms:Encrypt'],
      decrypt: ['kms:Decrypt'],
      encryptDecrypt: ['kms:Encrypt', 'kms:Decrypt'],
    });
  });

  test('KMS statements are scoped to the secrets key', () => {
    for (const name of ['dashboard', 'dashboard-domains', 'domains', 'links', 'migrations', 'send-email', 'webhooks', 'webhook-delivery']) {
      const statements = functionStatements(s.template, s.stack, name).filter((st) => actionsOf(st).some((a) => a.startsWith('kms:')));
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(actionsOf(statement).every((a) => a.startsWith('kms:'))).toBe(true);
        expect(resourcesOf(statement)).toEqual([keyArn()]);
      }
    }
  });
});

describe('stream workers', () => {
  test('only stream workers may read the stream, and only the table stream', () => {
    // Table read grants name GetRecords too, but on the table and its indexes: they never cover the stream ARN.
    const readsStream = (st: Statement) =>
      actionsOf(st).includes('dynamodb:GetRecords') &&
      resourcesOf(st).some((r) => r === '*' || JSON.stringify(r) === JSON.stringify(streamArn()) || JSON.stringify(r).includes('/stream'));
    const readers = definitions.filter((d) => functionStatements(s.template, s.stack, d.name).some(readsStream)).map((d) => d.name);
    expect(readers).toEqual(STREAM_WORKERS.map((w) => w.name));
    for (const worker of STREAM_WORKERS) {
      // The event source's statement: stream actions on the stream ARN only (a table read grant names
      // GetRecords on the table and its indexes, which never covers a stream).
      const statements = functionStatements(s.template, s.stack, worker.name).filter((st) =>
        actionsOf(st).includes('dynamodb:DescribeStream'),
      );
      expect(statements.flatMap(resourcesOf)).toEqual(statements.map(() => streamArn()));
      const listStreams = functionStatements(s.template, s.stack, worker.name).filter((st) =>
        actionsOf(st).includes('dynamodb:ListStreams'),
      );
      expect(listStreams.every(isListStreams)).toBe(true);
    }
  });

  test('the tenant stats worker may read the table and UpdateItem (no puts or deletes), and send only to its on-failure queue', () => {
    const statements = functionStatements(s.template, s.stack, 'tenant-stats');
    const dynamoActions = new Set(statements.flatMap(actionsOf).filter((a) => a.startsWith('dynamodb:')));
    expect(dynamoActions.has('dynamodb:UpdateItem')).toBe(true);
    expect(dynamoActions.has('dynamodb:BatchGetItem')).toBe(true);
    for (const write of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
      expect(dynamoActions.has(write)).toBe(false);
    expect(statements.filter((st) => actionsOf(st).includes('sqs:SendMessage')).flatMap(resourcesOf)).toEqual([
      onFailureArn('tenant-stats'),
    ]);
  });

  test("the tenant events worker may only read the stream, get the table's items by key (an account's endpoint counter) and send to the webhook events queue and its on-failure queue", () => {
    const statements = functionStatements(s.template, s.stack, 'tenant-events');
    const dynamoActions = statements
      .flatMap(actionsOf)
      .filter((a) => a.startsWith('dynamodb:'))
      .sort();
    expect(dynamoActions).toEqual(streamRelayTableActions());
    const gets = statements.filter((st) => actionsOf(st).includes('dynamodb:GetItem'));
    expect(gets.flatMap(resourcesOf)).toEqual([tableArn()]);
    const sends = statements.filter((st) => actionsOf(st).includes('sqs:SendMessage')).flatMap(resourcesOf);
    expect(sends.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [queueArn('webhookEvents'), onFailureArn('tenant-events')].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
  });

  test('the outbox relay may UpdateItem on the table, get its items by key (an endpoint counter) and send to the send and webhook events queues, nothing else', () => {
    const statements = functionStatements(s.template, s.stack, 'outbox-relay');
    const tableActions = statements
      .filter((st) => resourcesOf(st).some((r) => JSON.stringify(r) === JSON.stringify(tableArn())))
      .flatMap(actionsOf)
      .sort();
    expect(tableActions).toEqual([...TABLE_UPDATE_ACTIONS, ...TABLE_GET_ITEMS_ACTIONS].sort());
    const dynamoActions = statements
      .flatMap(actionsOf)
      .filter((a) => a.startsWith('dynamodb:'))
      .sort();
    expect(dynamoActions).toEqual(streamRelayTableActions('dynamodb:UpdateItem'));
    const sends = statements.filter((st) => actionsOf(st).includes('sqs:SendMessage')).flatMap(resourcesOf);
    expect(sends.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [queueArn('send'), queueArn('webhookEvents'), onFailureArn('outbox-relay')].sort((a, b) =>
        JSON.stringify(a).localeCompare(JSON.stringify(b)),
      ),
    );
    expect(
      functionActions(s.template, s.stack, 'outbox-relay').some((a) => a.startsWith('ses:') || a.startsWith('kms:') || a.startsWith('s3:')),
    ).toBe(false);
  });
});
