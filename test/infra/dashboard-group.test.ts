/**
 * The dashboard group (docs/dashboard.md): its routes (/dashboard, /dashboard/..., and the spec's session
 * doors under /api/...), and the least it needs: what the use cases of its pages and doors need, each
 * grant one an API group running the same use case holds (webhooks: sealing secrets, replays; domains:
 * DKIM keys, SES identities and tenants, Route 53; emails and received-emails: the mail bucket).
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

  test('its grants are those of the groups whose use cases its pages run, and nothing more', () => {
    expect(group().grants).toEqual<Grant[]>([
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      { resource: { kind: 'route53' }, access: 'manageRecords' },
      { resource: { kind: 'ses' }, access: 'manageIdentities' },
      { resource: { kind: 'ses' }, access: 'manageTenants' },
    ]);
    const holders = (grant: Grant) => API_GROUPS.filter((g) => g.name !== 'dashboard' && g.grants.some((other) => JSON.stringify(other) === JSON.stringify(grant))).map((g) => g.name);
    for (const grant of group().grants) expect(holders(grant).length).toBeGreaterThan(0);
    expect(holders({ resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' })).toEqual(['webhooks']);
    expect(holders({ resource: { kind: 'route53' }, access: 'manageRecords' })).toEqual(['domains']);
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

  test('may use the table, the secrets key, the mail bucket, and send to the deliveries queue only; never send email, schedule or publish', () => {
    const actions = functionActions(s.template, s.stack, 'dashboard');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:BatchGetItem', 'kms:Encrypt', 'kms:Decrypt', 'sqs:SendMessage', 's3:PutObject']));
    expect(actions.filter((action) => action.startsWith('kms:')).sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(actions).not.toContain('ses:SendEmail');
    expect(actions).not.toContain('ses:SendRawEmail');
    for (const prefix of ['sns:', 'scheduler:', 'iam:']) expect(actions.filter((action) => action.startsWith(prefix))).toEqual([]);
    const deliveries = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues.webhookDeliveries), 'Arn'] };
    const sqs = functionStatements(s.template, s.stack, 'dashboard').filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    expect(sqs.flatMap(resourcesOf)).toEqual(sqs.map(() => deliveries));
    const env = functionEnv(s.template, s.stack, 'dashboard');
    expect(Object.keys(env)).toEqual(expect.arrayContaining([TABLE.envVar, QUEUES.webhookDeliveries.envVar]));
  });
});
