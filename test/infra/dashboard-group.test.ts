/**
 * The dashboard group (docs/dashboard.md): its routes (/dashboard, /dashboard/..., and the spec's session
 * doors under /api/...), and the least it needs: the table, sealing webhook secrets and the deliveries
 * queue for replays, as the webhooks group whose routes /api/webhooks runs.
 */
import { API_GROUPS, QUEUES, TABLE, type Grant } from '../../infra/definitions';
import { functionActions, functionEnv, logicalId, resourcesOf, functionStatements, actionsOf, synth, type Synthesised } from './helpers';

let s: Synthesised;
beforeAll(() => {
  s = synth();
});
afterAll(() => s?.cleanup());

const ROUTES = ['ANY /dashboard', 'ANY /dashboard/{proxy+}', 'ANY /api/{proxy+}'];
const group = () => API_GROUPS.find((g) => g.name === 'dashboard')!;

describe('dashboard API group', () => {
  test('is defined with its entry and routes; no other group takes /dashboard or /api', () => {
    expect(group()).toMatchObject({ entry: 'functions/api/dashboard/handler.ts', routes: ROUTES });
    const others = API_GROUPS.filter((g) => g.name !== 'dashboard').flatMap((g) => g.routes);
    expect(others.filter((route) => / \/(dashboard|api)(\/|$)/.test(route))).toEqual([]);
  });

  test('its grants mirror the webhooks group (whose routes /api/webhooks runs) and nothing more', () => {
    const webhooks = API_GROUPS.find((g) => g.name === 'webhooks')!.grants;
    expect(group().grants).toEqual(webhooks);
    expect(group().grants).toEqual<Grant[]>([
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'secretsKey' }, access: 'encrypt' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ]);
  });

  test('routes each of its route keys to the dashboard function', () => {
    const integrations = s.template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, { Properties: { IntegrationUri: unknown } }>;
    const fnId = logicalId(s.stack, s.stack.api.functions.dashboard!);
    for (const routeKey of ROUTES) {
      const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } })) as { Properties: { Target: { 'Fn::Join': [string, unknown[]] } } }[];
      expect(routes).toHaveLength(1);
      const integrationId = (routes[0]!.Properties.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
      expect(JSON.stringify(integrations[integrationId]!.Properties.IntegrationUri)).toContain(fnId);
    }
  });

  test('may use the table, seal (never open) secrets and send to the deliveries queue only', () => {
    const actions = functionActions(s.template, s.stack, 'dashboard');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:BatchGetItem', 'kms:Encrypt', 'sqs:SendMessage']));
    expect(actions.filter((action) => action.startsWith('kms:'))).toEqual(['kms:Encrypt']);
    for (const prefix of ['sns:', 'ses:', 's3:', 'scheduler:', 'iam:']) expect(actions.filter((action) => action.startsWith(prefix))).toEqual([]);
    const deliveries = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues.webhookDeliveries), 'Arn'] };
    const sqs = functionStatements(s.template, s.stack, 'dashboard').filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    expect(sqs.flatMap(resourcesOf)).toEqual(sqs.map(() => deliveries));
    const env = functionEnv(s.template, s.stack, 'dashboard');
    expect(Object.keys(env)).toEqual(expect.arrayContaining([TABLE.envVar, QUEUES.webhookDeliveries.envVar]));
  });
});
