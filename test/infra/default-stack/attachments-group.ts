/** The attachments API group (presigned uploads): its routes, and exactly the table and mail bucket grants. */
import { apiRoutes } from '#infra/api-routes';
import { API_GROUPS, BUCKETS, TABLE } from '#infra/definitions';
import { functionActions, functionEnv, functionStatements, logicalId, resourcesOf, defaultStack, type Synthesised } from '../helpers';

let s: Synthesised;
beforeAll(() => {
  s = defaultStack();
});
afterAll(() => s?.cleanup());

describe('attachments API group', () => {
  test('is defined with its routes and entry', () => {
    const group = API_GROUPS.find((g) => g.name === 'attachments');
    expect(group).toMatchObject({ entry: 'functions/api/attachments/handler.ts' });
    expect(apiRoutes(group!)).toEqual(['ANY /attachments', 'ANY /attachments/{proxy+}']);
  });

  test('routes ANY /attachments and ANY /attachments/{proxy+} in the HTTP API', () => {
    for (const routeKey of ['ANY /attachments', 'ANY /attachments/{proxy+}']) {
      s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: routeKey });
    }
  });

  test('may read and write the table and the mail bucket (sign PUTs, HEAD), and nothing else', () => {
    const actions = new Set(functionActions(s.template, s.stack, 'attachments'));
    for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 's3:GetObject*', 's3:PutObject'])
      expect(actions).toContain(action);
    for (const prefix of ['sqs:', 'sns:', 'ses:', 'kms:', 'scheduler:', 'iam:']) {
      expect([...actions].filter((action) => action.startsWith(prefix))).toEqual([]);
    }
    const bucketArn = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.data.buckets.mail), 'Arn'] };
    const s3Statements = functionStatements(s.template, s.stack, 'attachments').filter((st) => JSON.stringify(st.Action).includes('s3:'));
    expect(s3Statements.length).toBeGreaterThan(0);
    for (const statement of s3Statements) expect(JSON.stringify(resourcesOf(statement))).toContain(JSON.stringify(bucketArn));
    const env = functionEnv(s.template, s.stack, 'attachments');
    expect(Object.keys(env)).toEqual(expect.arrayContaining([TABLE.envVar, BUCKETS.mail.envVar]));
  });
});

describe('uploads in the mail bucket', () => {
  it('expire after a day (lifecycle rule on uploads/)', () => {
    const template = s.template;
    const buckets = Object.values(template.findResources('AWS::S3::Bucket')) as {
      Properties: { LifecycleConfiguration?: { Rules: { Prefix?: string; ExpirationInDays?: number }[] } };
    }[];
    const rules = buckets.flatMap((b) => b.Properties.LifecycleConfiguration?.Rules ?? []);
    expect(rules).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 1 })]));
  });
});
