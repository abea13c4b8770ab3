/**
 * The hosted MTA-STS grants (infra/constructs/grants.ts, cases 'certificates' and 'apiDomains') as the local
 * cloud evaluates them: each role's policies taken from the synthesized template (as `npm start` deploys
 * it), the nine ACM and API Gateway calls of provisioning a policy host mapped by localstack/iam/operations.ts
 * and decided by the evaluator. The three functions given MTA_STS_HOSTING_GRANTS may make them for
 * `mta-sts.inbound.<domain>` and for link domains `links.<domain>` (HOSTED_HOST_PATTERNS) and nothing wider;
 * a function without the grants may make none.
 */
import { API_GROUPS, MTA_STS_HOSTING_GRANTS, SCHEDULED_TASKS } from '#infra/definitions';
import { DeployedStack } from '#localstack/cloud/template/deployed-stack';
import { readFunctions } from '#localstack/cloud/template/functions';
import { rolePolicies } from '#localstack/cloud/template/iam-policies';
import { synthesizedTemplate } from '#localstack/cloud/template/synthesize';
import { Authorizer, type CallVerdict } from '#localstack/iam/authorize';
import type { Principal } from '#localstack/iam/caller';

jest.setTimeout(120_000);

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const HOST = 'mta-sts.inbound.example.com';
const LINK_HOST = 'links.example.com';
const CERTIFICATE = `arn:aws:acm:${REGION}:${ACCOUNT}:certificate/0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e`;

/** The calls of provisioning (and removing) one hosted host (a policy host, a link domain), with the inputs the product sends. */
const request = (DomainName: string, extra: Record<string, unknown> = {}) => ({
  DomainName,
  ValidationMethod: 'DNS',
  IdempotencyToken: 'examplecom',
  ...extra,
});
type Call = [client: string, command: string, input: Record<string, unknown>];
const callsFor = (host: string): Call[] => [
  ['ACMClient', 'RequestCertificateCommand', request(host)],
  ['ACMClient', 'DescribeCertificateCommand', { CertificateArn: CERTIFICATE }],
  ['ACMClient', 'DeleteCertificateCommand', { CertificateArn: CERTIFICATE }],
  [
    'ApiGatewayV2Client',
    'CreateDomainNameCommand',
    { DomainName: host, DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }] },
  ],
  ['ApiGatewayV2Client', 'GetDomainNameCommand', { DomainName: host }],
  ['ApiGatewayV2Client', 'DeleteDomainNameCommand', { DomainName: host }],
  ['ApiGatewayV2Client', 'CreateApiMappingCommand', { DomainName: host, ApiId: 'a1b2c3d4e5', Stage: '$default' }],
  ['ApiGatewayV2Client', 'GetApiMappingsCommand', { DomainName: host }],
  ['ApiGatewayV2Client', 'DeleteApiMappingCommand', { DomainName: host, ApiMappingId: 'abc123' }],
];
const CALLS = callsFor(HOST);
const LINK_CALLS = callsFor(LINK_HOST);
/** The calls named by the API Gateway resource they act on, the custom domain name or its mappings (CreateDomainName is on the collection). */
const onDomainName = ([client, command]: Call) => client === 'ApiGatewayV2Client' && command !== 'CreateDomainNameCommand';
const operationOf = (call: Call) => `${call[0].replace(/Client$/, '')}.${call[1].replace(/Command$/, '')}`;

const HOSTING = [...API_GROUPS, ...SCHEDULED_TASKS]
  .filter((fn) => MTA_STS_HOSTING_GRANTS.every((grant) => fn.grants.includes(grant)))
  .map((fn) => fn.name);

let principals: Map<string, Principal>;
const authorizer = new Authorizer({ partition: 'aws', region: REGION, accountId: ACCOUNT });
const authorize = (name: string, [client, command, input]: Call): Promise<CallVerdict> =>
  authorizer.authorize(principals.get(name)!, client, command, input);
const denial = (verdict: CallVerdict) => ({
  allowed: verdict.allowed,
  effect: verdict.denied?.decision.effect,
  error: verdict.error?.message,
});

beforeAll(async () => {
  const { template } = await synthesizedTemplate();
  const stack = new DeployedStack(template, {
    stackName: 'Mailservice',
    region: REGION,
    accountId: ACCOUNT,
    apiUrl: 'http://127.0.0.1:3000',
  });
  // What emulators answer at creation (as test/unit/local-cloud/template/deployed-stack.test.ts).
  for (const id of stack.ofType('AWS::SQS::Queue')) stack.learn(id, { ref: `http://sqs.local/${ACCOUNT}/${stack.record(id).name}` });
  for (const id of stack.ofType('AWS::DynamoDB::Table'))
    stack.learn(id, { attributes: { StreamArn: `${String(stack.record(id).attributes.Arn)}/stream/2026-01-01T00:00:00.000` } });
  for (const id of stack.ofType('AWS::KMS::Key'))
    stack.learn(id, { ref: 'k1', attributes: { Arn: `arn:aws:kms:${REGION}:${ACCOUNT}:key/k1`, KeyId: 'k1' } });
  const policies = rolePolicies(stack);
  principals = new Map(
    readFunctions(stack).map((fn) => [
      fn.name,
      { functionName: fn.functionName, roleArn: fn.roleArn, policies: policies.get(fn.roleLogicalId)! },
    ]),
  );
});

test('the grants are given to the domain-health task only (PUT and DELETE /domains/{id}/mta-sts and /domains/{id}/link-domain only make its steps due)', () => {
  expect(HOSTING.sort()).toEqual(['domain-health']);
});

describe.each(['domain-health'])('%s', (name) => {
  test.each(CALLS.map((call) => [operationOf(call), call] as const))(
    'may call %s for mta-sts.inbound.example.com',
    async (_operation, call) => {
      const verdict = await authorize(name, call);
      expect(denial(verdict)).toEqual({ allowed: true, effect: undefined, error: undefined });
    },
  );

  test('may not request a certificate for another host, with another name beside, by e-mail, by default validation or exportable', async () => {
    const refused = [
      request('www.example.com'),
      request(HOST, { SubjectAlternativeNames: ['www.example.com'] }),
      request('mta-sts.example.com'),
      request(HOST, { ValidationMethod: 'EMAIL' }),
      { DomainName: HOST, IdempotencyToken: 'x' },
      request(HOST, { Options: { Export: 'ENABLED' } }),
    ];
    for (const input of refused)
      expect(denial(await authorize(name, ['ACMClient', 'RequestCertificateCommand', input]))).toEqual({
        allowed: false,
        effect: 'ImplicitDeny',
        error: undefined,
      });
    // The name listed twice (DomainName and SAN, as ACM adds it) and a non-exportable request are fine.
    expect(
      (
        await authorize(name, [
          'ACMClient',
          'RequestCertificateCommand',
          request(HOST, { SubjectAlternativeNames: [HOST], Options: { Export: 'DISABLED' } }),
        ])
      ).allowed,
    ).toBe(true);
  });

  test('may not read, map or delete the custom domain name of another host', async () => {
    for (const [client, command, input] of CALLS.filter(onDomainName)) {
      expect(denial(await authorize(name, [client, command, { ...input, DomainName: 'api.example.com' }]))).toEqual({
        allowed: false,
        effect: 'ImplicitDeny',
        error: undefined,
      });
    }
  });

  test('may create a custom domain name only regional, TLS 1.2 and without mutual TLS', async () => {
    const create = (configuration: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      authorize(name, [
        'ApiGatewayV2Client',
        'CreateDomainNameCommand',
        { DomainName: HOST, DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, ...configuration }], ...extra },
      ]);
    const refused = { allowed: false, effect: 'ImplicitDeny', error: undefined };
    expect(denial(await create({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_0' }))).toEqual(refused);
    expect(denial(await create({ EndpointType: 'EDGE', SecurityPolicy: 'TLS_1_2' }))).toEqual(refused);
    expect(
      denial(
        await create({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }, { MutualTlsAuthentication: { TruststoreUri: 's3://b/k' } }),
      ),
    ).toEqual(refused);
  });

  test('CreateDomainName is authorized on the collection /domainnames: IAM cannot refuse another name (its mapping, reading and deletion are refused above)', async () => {
    const verdict = await authorize(name, [
      'ApiGatewayV2Client',
      'CreateDomainNameCommand',
      {
        DomainName: 'api.example.com',
        DomainNameConfigurations: [{ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
      },
    ]);
    expect(verdict.verdicts.map((v) => v.request.resource)).toEqual([`arn:aws:apigateway:${REGION}::/domainnames`]);
    expect(verdict.allowed).toBe(true);
  });
});

describe.each(['domain-health'])('%s, for link domains (links.<domain>)', (name) => {
  test.each(LINK_CALLS.map((call) => [operationOf(call), call] as const))('may call %s for links.example.com', async (_operation, call) => {
    const verdict = await authorize(name, call);
    expect(denial(verdict)).toEqual({ allowed: true, effect: undefined, error: undefined });
  });

  test('may not request a certificate for www.example.com, nor one naming links.example.com with www.example.com beside', async () => {
    for (const input of [request('www.example.com'), request(LINK_HOST, { SubjectAlternativeNames: [LINK_HOST, 'www.example.com'] })])
      expect(denial(await authorize(name, ['ACMClient', 'RequestCertificateCommand', input]))).toEqual({
        allowed: false,
        effect: 'ImplicitDeny',
        error: undefined,
      });
  });

  test('may not read, map or delete /domainnames/www.example.com or its mappings', async () => {
    for (const [client, command, input] of LINK_CALLS.filter(onDomainName)) {
      const verdict = await authorize(name, [client, command, { ...input, DomainName: 'www.example.com' }]);
      expect(verdict.verdicts.map((v) => v.request.resource)).toEqual([
        expect.stringMatching(new RegExp(`^arn:aws:apigateway:${REGION}::/domainnames/www\\.example\\.com(/apimappings(/abc123)?)?$`)),
      ]);
      expect(denial(verdict)).toEqual({ allowed: false, effect: 'ImplicitDeny', error: undefined });
    }
  });
});

test.each(['emails', 'domains', 'dashboard-domains'])(
  'a function without the grants (%s) may make none of the nine calls, for an MTA-STS host or a link domain',
  async (name) => {
    expect(HOSTING).not.toContain(name);
    for (const call of [...CALLS, ...LINK_CALLS])
      expect(denial(await authorize(name, call))).toEqual({ allowed: false, effect: 'ImplicitDeny', error: undefined });
  },
);
