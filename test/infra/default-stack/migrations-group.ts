/** The migrations group (imports, docs/imports.md): routes, a 29 s Lambda for ~25 s of work, and the least it needs. */
import { apiRoutes } from '#infra/api-routes';
import { API_GROUPS } from '#infra/definitions';
import { functionActions, functionProperties, logicalId, defaultStack, type Synthesised } from '../helpers';

let s: Synthesised;
beforeAll(() => {
  s = defaultStack();
});
afterAll(() => s?.cleanup());

describe('migrations API group', () => {
  test('routes /migrations and everything below it to its own function', () => {
    const group = API_GROUPS.find((g) => g.name === 'migrations')!;
    expect(group).toMatchObject({ entry: 'functions/api/migrations/handler.ts' });
    expect(apiRoutes(group)).toEqual(['ANY /migrations', 'ANY /migrations/{proxy+}']);
    const fnId = logicalId(s.stack, s.stack.api.functions.migrations!);
    for (const routeKey of ['ANY /migrations', 'ANY /migrations/{proxy+}']) {
      const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } }));
      expect(routes).toHaveLength(1);
    }
    expect(JSON.stringify(s.template.findResources('AWS::ApiGatewayV2::Integration'))).toContain(fnId);
  });

  test('runs up to 29 s: room for the 25 s budget and the answer inside API Gateway 30 s', () => {
    expect(functionProperties(s.template, s.stack, 'migrations').Timeout).toBe(29);
  });

  test('may use the table and seal secrets (DKIM keys, webhook secrets), never open them; no queues, mail or schedules', () => {
    const actions = functionActions(s.template, s.stack, 'migrations');
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query', 'kms:Encrypt']),
    );
    expect(actions.filter((action) => action.startsWith('kms:'))).toEqual(['kms:Encrypt']);
    for (const prefix of ['sqs:', 'sns:', 'ses:', 's3:', 'scheduler:', 'iam:'])
      expect(actions.filter((action) => action.startsWith(prefix))).toEqual([]);
  });
});
