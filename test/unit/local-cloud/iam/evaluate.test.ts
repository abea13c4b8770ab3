/**
 * The local IAM evaluator (localstack/iam/evaluate.ts) on the examples and rules of AWS's documentation:
 * - evaluation logic: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
 * - NotAction / NotResource / NotPrincipal: reference_policies_elements_notaction.html, _notresource.html, _notprincipal.html
 * - condition operators, IfExists, Null, set operators: reference_policies_elements_condition_operators.html,
 *   reference_policies_condition-single-vs-multi-valued-context-keys.html
 * - KMS key policies: https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html
 */
import { evaluate, type AuthorizationRequest, type PolicySet } from '#localstack/iam/evaluate';
import { UnsupportedPolicyError, UnsupportedRequestError } from '#localstack/iam/errors';
import type { PolicyDocument, PolicyStatement } from '#localstack/iam/policy';
import type { CallerIdentity } from '#localstack/iam/principals';

const ACCOUNT = '111122223333';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/service-role/SendEmailRole`;
const SESSION = `arn:aws:sts::${ACCOUNT}:assumed-role/SendEmailRole/send-email`;
const caller: CallerIdentity = { kind: 'role-session', accountId: ACCOUNT, partition: 'aws', roleArn: ROLE, sessionArn: SESSION };
const TABLE = `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/mailservice`;
const OBJECT = 'arn:aws:s3:::mail-bucket/raw/1.eml';
const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

const doc = (...Statement: PolicyStatement[]): PolicyDocument => ({ Version: '2012-10-17', Statement });
const identity = (...statements: PolicyStatement[]): PolicySet => ({
  identityPolicies: [{ name: 'role policy', document: doc(...statements) }],
});
const req = (
  action: string,
  resource: string,
  context: AuthorizationRequest['context'] = {},
  absentKeys: string[] = [],
): AuthorizationRequest => ({ action, resource, context, absentKeys });
const effect = (request: AuthorizationRequest, policies: PolicySet, who: CallerIdentity = caller) =>
  evaluate(request, who, policies).effect;

describe('identity-based policies', () => {
  test('nothing allows: implicit deny, reported as "no identity-based policy allows"', () => {
    const decision = evaluate(
      req('dynamodb:GetItem', TABLE),
      caller,
      identity({ Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: TABLE }),
    );
    expect(decision).toEqual({ effect: 'ImplicitDeny', deniedBy: 'identity', matched: [] });
  });

  test('an explicit Deny wins over any Allow, and the matched statements are reported', () => {
    const policies = identity(
      { Sid: 'All', Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' },
      { Sid: 'NoDelete', Effect: 'Deny', Action: 'dynamodb:DeleteItem', Resource: TABLE },
    );
    expect(effect(req('dynamodb:GetItem', TABLE), policies)).toBe('Allow');
    expect(evaluate(req('dynamodb:DeleteItem', TABLE), caller, policies)).toEqual({
      effect: 'ExplicitDeny',
      deniedBy: 'identity',
      matched: [{ policy: 'role policy', sid: 'NoDelete', index: 1, effect: 'Deny' }],
    });
  });

  test('actions match case-insensitively, with * and ? wildcards', () => {
    expect(effect(req('dynamodb:GetItem', TABLE), identity({ Effect: 'Allow', Action: 'DynamoDB:getitem', Resource: TABLE }))).toBe(
      'Allow',
    );
    expect(effect(req('s3:GetObjectVersion', OBJECT), identity({ Effect: 'Allow', Action: 's3:Get*', Resource: '*' }))).toBe('Allow');
    expect(effect(req('dynamodb:GetItem', TABLE), identity({ Effect: 'Allow', Action: 'dynamodb:?etItem', Resource: '*' }))).toBe('Allow');
    expect(effect(req('dynamodb:BatchGetItem', TABLE), identity({ Effect: 'Allow', Action: 'dynamodb:?etItem', Resource: '*' }))).toBe(
      'ImplicitDeny',
    );
  });

  test('resources match per ARN component, case-sensitively; * in the last component spans slashes', () => {
    const allow = (Resource: string) => identity({ Effect: 'Allow', Action: '*', Resource });
    expect(effect(req('s3:GetObject', OBJECT), allow('arn:aws:s3:::mail-bucket/*'))).toBe('Allow');
    expect(effect(req('s3:GetObject', OBJECT), allow('arn:aws:s3:::Mail-Bucket/*'))).toBe('ImplicitDeny');
    expect(effect(req('dynamodb:Query', `${TABLE}/index/GSI1`), allow(`${TABLE}/index/*`))).toBe('Allow');
    expect(effect(req('dynamodb:Query', `${TABLE}/index/GSI1`), allow(TABLE))).toBe('ImplicitDeny');
    expect(effect(req('dynamodb:GetItem', TABLE), allow('arn:aws:dynamodb:*:*:table/mailservice'))).toBe('Allow');
    // A wildcard in the region component does not reach into the account component.
    expect(effect(req('dynamodb:GetItem', TABLE), allow('arn:aws:dynamodb:*:table/mailservice'))).toBe('ImplicitDeny');
  });

  test('NotAction with Allow allows everything but the listed actions (AWS doc example: all but IAM)', () => {
    const policies = identity({ Effect: 'Allow', NotAction: 'iam:*', Resource: '*' });
    expect(effect(req('s3:GetObject', OBJECT), policies)).toBe('Allow');
    expect(effect(req('iam:PassRole', ROLE), policies)).toBe('ImplicitDeny');
  });

  test('Deny with NotAction denies everything but the listed actions', () => {
    const policies = identity(
      { Effect: 'Allow', Action: '*', Resource: '*' },
      { Effect: 'Deny', NotAction: ['s3:GetObject'], Resource: '*' },
    );
    expect(effect(req('s3:GetObject', OBJECT), policies)).toBe('Allow');
    expect(evaluate(req('s3:PutObject', OBJECT), caller, policies).effect).toBe('ExplicitDeny');
  });

  test('NotResource: Deny everywhere except the listed resources', () => {
    const policies = identity(
      { Effect: 'Allow', Action: 's3:*', Resource: '*' },
      { Effect: 'Deny', Action: 's3:*', NotResource: ['arn:aws:s3:::mail-bucket', 'arn:aws:s3:::mail-bucket/*'] },
    );
    expect(effect(req('s3:GetObject', OBJECT), policies)).toBe('Allow');
    expect(effect(req('s3:GetObject', 'arn:aws:s3:::other/x'), policies)).toBe('ExplicitDeny');
  });
});

describe('conditions', () => {
  const withCondition = (Condition: PolicyStatement['Condition']) => identity({ Effect: 'Allow', Action: '*', Resource: '*', Condition });

  test('StringEquals: the values of one key are ORed, keys and operators are ANDed', () => {
    const policies = withCondition({
      StringEquals: { 'iam:PassedToService': ['scheduler.amazonaws.com', 'events.amazonaws.com'], 'aws:RequestedRegion': 'us-east-1' },
    });
    const pass = (service: string, region = 'us-east-1') =>
      effect(req('iam:PassRole', ROLE, { 'iam:PassedToService': service, 'aws:RequestedRegion': region }), policies);
    expect(pass('scheduler.amazonaws.com')).toBe('Allow');
    expect(pass('events.amazonaws.com')).toBe('Allow');
    expect(pass('lambda.amazonaws.com')).toBe('ImplicitDeny');
    expect(pass('scheduler.amazonaws.com', 'eu-west-1')).toBe('ImplicitDeny');
  });

  test('condition keys are case-insensitive, values case-sensitive unless IgnoreCase', () => {
    expect(
      effect(req('s3:GetObject', OBJECT, { 'AWS:SecureTransport': 'true' }), withCondition({ Bool: { 'aws:securetransport': 'true' } })),
    ).toBe('Allow');
    expect(
      effect(
        req('ses:SendEmail', '*', { 'ses:FromAddress': 'A@Example.com' }),
        withCondition({ StringEquals: { 'ses:FromAddress': 'a@example.com' } }),
      ),
    ).toBe('ImplicitDeny');
    expect(
      effect(
        req('ses:SendEmail', '*', { 'ses:FromAddress': 'A@Example.com' }),
        withCondition({ StringEqualsIgnoreCase: { 'ses:FromAddress': 'a@example.com' } }),
      ),
    ).toBe('Allow');
  });

  test('an absent key: false for positive operators, true for negated ones, true with IfExists; Null tests presence', () => {
    const request = req('ses:SendEmail', '*', {}, ['ses:TenantName']);
    expect(effect(request, withCondition({ StringEquals: { 'ses:TenantName': 't1' } }))).toBe('ImplicitDeny');
    expect(effect(request, withCondition({ StringNotEquals: { 'ses:TenantName': 't1' } }))).toBe('Allow');
    expect(effect(request, withCondition({ StringEqualsIfExists: { 'ses:TenantName': 't1' } }))).toBe('Allow');
    expect(effect(request, withCondition({ Null: { 'ses:TenantName': 'true' } }))).toBe('Allow');
    expect(effect(request, withCondition({ Null: { 'ses:TenantName': 'false' } }))).toBe('ImplicitDeny');
    const present = req('ses:SendEmail', '*', { 'ses:TenantName': 't2' });
    expect(effect(present, withCondition({ StringEqualsIfExists: { 'ses:TenantName': 't1' } }))).toBe('ImplicitDeny');
    expect(effect(present, withCondition({ Null: { 'ses:TenantName': 'false' } }))).toBe('Allow');
  });

  test('StringLike and ArnLike/ArnEquals with wildcards; the negated forms', () => {
    const topic = 'arn:aws:sns:us-east-1:111122223333:mailservice-events';
    expect(
      effect(
        req('sqs:SendMessage', '*', { 'aws:SourceArn': topic }),
        withCondition({ ArnLike: { 'aws:SourceArn': 'arn:aws:sns:*:111122223333:mailservice-*' } }),
      ),
    ).toBe('Allow');
    expect(
      effect(
        req('sqs:SendMessage', '*', { 'aws:SourceArn': topic }),
        withCondition({ ArnEquals: { 'aws:SourceArn': 'arn:aws:sns:*:111122223333:mailservice-*' } }),
      ),
    ).toBe('Allow');
    expect(
      effect(
        req('sqs:SendMessage', '*', { 'aws:SourceArn': topic }),
        withCondition({ ArnNotLike: { 'aws:SourceArn': 'arn:aws:sns:*:*:mailservice-*' } }),
      ),
    ).toBe('ImplicitDeny');
    expect(
      effect(
        req('ses:SendEmail', '*', { 'ses:FromAddress': 'noreply@mail.example.com' }),
        withCondition({ StringLike: { 'ses:FromAddress': '*@mail.example.???' } }),
      ),
    ).toBe('Allow');
    expect(
      effect(
        req('ses:SendEmail', '*', { 'ses:FromAddress': 'noreply@mail.example.org' }),
        withCondition({ StringNotLike: { 'ses:FromAddress': '*@*.org' } }),
      ),
    ).toBe('ImplicitDeny');
  });

  test('Numeric and Date operators', () => {
    expect(
      effect(req('s3:ListBucket', '*', { 's3:max-keys': '10' }), withCondition({ NumericLessThanEquals: { 's3:max-keys': '10' } })),
    ).toBe('Allow');
    expect(
      effect(req('s3:ListBucket', '*', { 's3:max-keys': '11' }), withCondition({ NumericLessThanEquals: { 's3:max-keys': '10' } })),
    ).toBe('ImplicitDeny');
    expect(effect(req('s3:ListBucket', '*', { 's3:max-keys': 'ten' }), withCondition({ NumericNotEquals: { 's3:max-keys': '10' } }))).toBe(
      'Allow',
    );
    const at = (time: string) => req('s3:GetObject', OBJECT, { 'aws:CurrentTime': time });
    const window = withCondition({
      DateGreaterThan: { 'aws:CurrentTime': '2026-01-01T00:00:00Z' },
      DateLessThan: { 'aws:CurrentTime': '1798761600' },
    });
    expect(effect(at('2026-06-01T12:00:00Z'), window)).toBe('Allow');
    expect(effect(at('2025-12-31T23:59:59Z'), window)).toBe('ImplicitDeny');
    expect(effect(at('2027-01-01T00:00:00Z'), window)).toBe('ImplicitDeny');
  });

  test('ForAllValues: every value must match (true when absent or empty); ForAnyValue: one must (false when absent)', () => {
    const all = withCondition({ 'ForAllValues:StringLike': { 'kms:EncryptionContextKeys': ['purpose', 'account*'] } });
    const any = withCondition({ 'ForAnyValue:StringEquals': { 'kms:EncryptionContextKeys': 'purpose' } });
    const keys = (...values: string[]) =>
      req('kms:Encrypt', KEY, values.length ? { 'kms:EncryptionContextKeys': values } : {}, ['kms:EncryptionContextKeys']);
    expect(effect(keys('purpose', 'accountId'), all)).toBe('Allow');
    expect(effect(keys('purpose', 'tenant'), all)).toBe('ImplicitDeny');
    expect(effect(keys(), all)).toBe('Allow');
    expect(effect(keys('tenant', 'purpose'), any)).toBe('Allow');
    expect(effect(keys('tenant'), any)).toBe('ImplicitDeny');
    expect(effect(keys(), any)).toBe('ImplicitDeny');
    // The negated set forms: ForAllValues:StringNotEquals means "none of the values is listed".
    const none = withCondition({ 'ForAllValues:StringNotEquals': { 'kms:EncryptionContextKeys': 'secret' } });
    expect(effect(keys('purpose'), none)).toBe('Allow');
    expect(effect(keys('purpose', 'secret'), none)).toBe('ImplicitDeny');
  });

  test('kms:EncryptionContext:<key> conditions are evaluated (the gap found in iam-simulate)', () => {
    const policies = withCondition({ StringEquals: { 'kms:EncryptionContext:purpose': 'dkim' } });
    const encrypt = (purpose: string) => req('kms:Encrypt', KEY, { 'kms:EncryptionContext:purpose': purpose }, ['kms:EncryptionContext:*']);
    expect(effect(encrypt('dkim'), policies)).toBe('Allow');
    expect(effect(encrypt('webhook'), policies)).toBe('ImplicitDeny');
    expect(effect(req('kms:Encrypt', KEY, {}, ['kms:EncryptionContext:*']), policies)).toBe('ImplicitDeny');
  });

  test('a key the request neither carries nor declares absent throws instead of guessing', () => {
    const policies = withCondition({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': 'TENANT#*' } });
    expect(() => evaluate(req('dynamodb:Query', TABLE), caller, policies)).toThrow(UnsupportedRequestError);
    expect(() => evaluate(req('dynamodb:Query', TABLE), caller, policies)).toThrow(/dynamodb:leadingkeys/);
  });

  test('a multivalued context key under a single-valued operator throws', () => {
    expect(() =>
      evaluate(
        req('ses:SendEmail', '*', { 'ses:Recipients': ['a@x.y', 'b@x.y'] }),
        caller,
        withCondition({ StringLike: { 'ses:Recipients': '*@x.y' } }),
      ),
    ).toThrow(UnsupportedPolicyError);
  });
});

describe('what the evaluator does not know throws when the policy is compiled', () => {
  const compile = (statement: Record<string, unknown>) => () =>
    evaluate(req('s3:GetObject', OBJECT), caller, identity(statement as unknown as PolicyStatement));
  test.each(['IpAddress', 'BinaryEquals', 'StringSortOf', 'ForAnyValue:Null'])('condition operator %s', (operator) => {
    expect(
      compile({ Effect: 'Allow', Action: 's3:PutObject', Resource: '*', Condition: { [operator]: { 'aws:SourceIp': '10.0.0.0/8' } } }),
    ).toThrow(UnsupportedPolicyError);
  });
  test('even in a statement that does not apply to the request', () => {
    expect(
      compile({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*', Condition: { StringWhatever: { 'aws:PrincipalArn': 'x' } } }),
    ).toThrow(/StringWhatever/);
  });
  test('policy variables in a 2012-10-17 policy', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable, ${aws:username}, as a policy writes it
    expect(compile({ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::mail-bucket/${aws:username}/*' })).toThrow(
      /policy variable/,
    );
  });
  test('unknown elements, a missing Effect, Principal in an identity policy', () => {
    expect(compile({ Effect: 'Allow', Action: 's3:GetObject', Resource: '*', Conditions: {} })).toThrow(/unknown element "Conditions"/);
    expect(compile({ Effect: 'Permit', Action: 's3:GetObject', Resource: '*' })).toThrow(/Effect/);
    expect(compile({ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: '*' })).toThrow(
      /identity-based policy cannot have Principal/,
    );
  });
  test('a malformed value for a typed operator', () => {
    expect(compile({ Effect: 'Allow', Action: '*', Resource: '*', Condition: { NumericLessThan: { 's3:max-keys': 'ten' } } })).toThrow(
      /cannot compare/,
    );
  });
});

describe('resource-based policies in the same account', () => {
  const withResource = (statements: PolicyStatement[], identityStatements: PolicyStatement[] = [], kind?: 'kms-key'): PolicySet => ({
    identityPolicies: [{ name: 'role policy', document: doc(...identityStatements) }],
    resourcePolicy: { name: 'resource policy', document: doc(...statements) },
    ...(kind ? { resourceKind: kind } : {}),
  });

  test('a resource policy naming the role (or its session) allows without any identity policy', () => {
    expect(
      effect(
        req('s3:GetObject', OBJECT),
        withResource([{ Effect: 'Allow', Principal: { AWS: ROLE }, Action: 's3:GetObject', Resource: OBJECT }]),
      ),
    ).toBe('Allow');
    expect(
      effect(
        req('s3:GetObject', OBJECT),
        withResource([{ Effect: 'Allow', Principal: { AWS: [SESSION] }, Action: 's3:GetObject', Resource: OBJECT }]),
      ),
    ).toBe('Allow');
  });

  test('a resource policy naming only the account delegates to the identity policies', () => {
    const account = {
      Effect: 'Allow' as const,
      Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
      Action: 's3:GetObject',
      Resource: OBJECT,
    };
    expect(effect(req('s3:GetObject', OBJECT), withResource([account]))).toBe('ImplicitDeny');
    expect(
      effect(
        req('s3:GetObject', OBJECT),
        withResource([{ ...account, Principal: { AWS: ACCOUNT } }], [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }]),
      ),
    ).toBe('Allow');
  });

  test("the template's bucket policy: Deny s3:* to * unless aws:SecureTransport", () => {
    const bucket: PolicyStatement = {
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 's3:*',
      Resource: ['arn:aws:s3:::mail-bucket', 'arn:aws:s3:::mail-bucket/*'],
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    };
    const policies = withResource([bucket], [{ Effect: 'Allow', Action: 's3:GetObject*', Resource: 'arn:aws:s3:::mail-bucket/*' }]);
    expect(effect(req('s3:GetObject', OBJECT, { 'aws:SecureTransport': 'true' }), policies)).toBe('Allow');
    expect(evaluate(req('s3:GetObject', OBJECT, { 'aws:SecureTransport': 'false' }), caller, policies)).toMatchObject({
      effect: 'ExplicitDeny',
      deniedBy: 'resource',
    });
  });

  test("a service principal and the template's queue policy (ArnEquals aws:SourceArn)", () => {
    const topic = `arn:aws:sns:us-east-1:${ACCOUNT}:events`;
    const policies = withResource([
      {
        Effect: 'Allow',
        Principal: { Service: 'sns.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Resource: '*',
        Condition: { ArnEquals: { 'aws:SourceArn': topic } },
      },
    ]);
    const sns: CallerIdentity = { kind: 'service', service: 'sns.amazonaws.com' };
    expect(effect(req('sqs:SendMessage', 'arn:aws:sqs:us-east-1:111122223333:q', { 'aws:SourceArn': topic }), policies, sns)).toBe('Allow');
    expect(
      effect(req('sqs:SendMessage', 'arn:aws:sqs:us-east-1:111122223333:q', { 'aws:SourceArn': `${topic}-other` }), policies, sns),
    ).toBe('ImplicitDeny');
    // The role is not the service principal.
    expect(effect(req('sqs:SendMessage', 'arn:aws:sqs:us-east-1:111122223333:q', { 'aws:SourceArn': topic }), policies)).toBe(
      'ImplicitDeny',
    );
  });

  test('NotPrincipal with Deny: excluded only when the session, the role and the account are all listed', () => {
    const denyAllBut = (...listed: string[]): PolicySet =>
      withResource(
        [{ Effect: 'Deny', NotPrincipal: { AWS: listed }, Action: 's3:*', Resource: '*' }],
        [{ Effect: 'Allow', Action: 's3:*', Resource: '*' }],
      );
    expect(effect(req('s3:GetObject', OBJECT), denyAllBut(ROLE))).toBe('ExplicitDeny');
    expect(effect(req('s3:GetObject', OBJECT), denyAllBut(SESSION, ROLE, `arn:aws:iam::${ACCOUNT}:root`))).toBe('Allow');
  });

  test('a partial wildcard in a principal is refused, as AWS refuses it', () => {
    expect(() =>
      effect(
        req('s3:GetObject', OBJECT),
        withResource([{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:role/*` }, Action: 's3:*', Resource: '*' }]),
      ),
    ).toThrow(UnsupportedPolicyError);
  });

  describe('KMS: the key policy must allow', () => {
    const rootKeyPolicy: PolicyStatement = {
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
      Action: 'kms:*',
      Resource: '*',
    };
    const iamAllows: PolicyStatement = { Effect: 'Allow', Action: ['kms:Encrypt', 'kms:Decrypt'], Resource: KEY };

    test('no key policy: denied even though the identity policy allows ("no resource-based policy allows")', () => {
      expect(
        evaluate(req('kms:Decrypt', KEY), caller, { identityPolicies: [{ name: 'p', document: doc(iamAllows) }], resourceKind: 'kms-key' }),
      ).toEqual({ effect: 'ImplicitDeny', deniedBy: 'resource', matched: [] });
    });
    test('the default key policy trusts the account root, which delegates to IAM: allowed only if IAM allows', () => {
      expect(effect(req('kms:Decrypt', KEY), withResource([rootKeyPolicy], [iamAllows], 'kms-key'))).toBe('Allow');
      expect(evaluate(req('kms:Decrypt', KEY), caller, withResource([rootKeyPolicy], [], 'kms-key'))).toMatchObject({
        effect: 'ImplicitDeny',
        deniedBy: 'identity',
      });
      expect(effect(req('kms:GenerateDataKey', KEY), withResource([rootKeyPolicy], [iamAllows], 'kms-key'))).toBe('ImplicitDeny');
    });
    test('a key policy that names the role allows on its own', () => {
      expect(
        effect(
          req('kms:Decrypt', KEY),
          withResource([{ Effect: 'Allow', Principal: { AWS: ROLE }, Action: 'kms:Decrypt', Resource: '*' }], [], 'kms-key'),
        ),
      ).toBe('Allow');
    });
    test('a key policy that does not mention the account: IAM policies have no effect', () => {
      const other: PolicyStatement = {
        Effect: 'Allow',
        Principal: { AWS: 'arn:aws:iam::444455556666:root' },
        Action: 'kms:*',
        Resource: '*',
      };
      expect(evaluate(req('kms:Decrypt', KEY), caller, withResource([other], [iamAllows], 'kms-key'))).toMatchObject({
        effect: 'ImplicitDeny',
        deniedBy: 'resource',
      });
    });
  });
});
