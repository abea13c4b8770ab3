/**
 * The dashboard's functions (docs/dashboard.md): the main one (/dashboard, /dashboard/..., and the spec's
 * session doors under /api/...), dashboard-emails (/dashboard/emails..., /dashboard/received...),
 * dashboard-domains (/dashboard/domains...) and dashboard-send (/dashboard/emails/test and
 * /dashboard/invitations: the forms that send through the send core), each the least it needs: what the use cases of its pages and
 * doors need, each grant one an API group running the same use case holds (webhooks: sealing secrets,
 * replays; domains: DKIM keys, SES identities and tenants, Route 53; emails and received-emails: the mail
 * bucket).
 */
import { apiRoutes } from '#infra/api-routes';
import { API_GROUPS, QUEUES, TABLE, type Grant } from '#infra/definitions';
import { compileRoutes, matchRoute } from '#localstack/cloud/api/routes';
import {
  functionActions,
  functionEnv,
  logicalId,
  resourcesOf,
  functionStatements,
  actionsOf,
  defaultStack,
  type Synthesised,
} from '../helpers';

let s: Synthesised;
beforeAll(() => {
  s = defaultStack();
});
afterAll(() => s?.cleanup());

const ROUTES: Record<string, string[]> = {
  dashboard: ['ANY /dashboard', 'ANY /dashboard/{proxy+}', 'ANY /api/{proxy+}'],
  'dashboard-emails': [
    'ANY /dashboard/emails',
    'ANY /dashboard/emails/{proxy+}',
    'ANY /dashboard/received',
    'ANY /dashboard/received/{proxy+}',
  ],
  'dashboard-domains': ['ANY /dashboard/domains', 'ANY /dashboard/domains/{proxy+}'],
  'dashboard-validations': ['ANY /dashboard/validations'],
  'dashboard-send': ['ANY /dashboard/emails/test', 'ANY /dashboard/invitations', 'ANY /dashboard/invitations/{proxy+}'],
};
const group = (name: string) => API_GROUPS.find((g) => g.name === name)!;
const holders = (grant: Grant) =>
  API_GROUPS.filter(
    (g) => !g.name.startsWith('dashboard') && g.grants.some((other) => JSON.stringify(other) === JSON.stringify(grant)),
  ).map((g) => g.name);

describe('the dashboard functions', () => {
  test('are defined with their entries and routes; no other group takes /dashboard or /api', () => {
    for (const [name, routes] of Object.entries(ROUTES)) {
      expect(group(name)).toMatchObject({ entry: `functions/api/${name}/handler.ts` });
      expect(apiRoutes(group(name))).toEqual(routes);
    }
    const others = API_GROUPS.filter((g) => !(g.name in ROUTES)).flatMap((g) => apiRoutes(g));
    expect(others.filter((route) => / \/(dashboard|api)(\/|$)/.test(route))).toEqual([]);
  });

  test('each path goes to the function of its area (the most specific route wins, as in API Gateway)', () => {
    const routes = compileRoutes(API_GROUPS.flatMap((g) => apiRoutes(g).map((routeKey) => ({ routeKey, target: g.name }))));
    const target = (method: string, path: string) => matchRoute(routes, method, path)?.target;
    expect(target('GET', '/dashboard/emails')).toBe('dashboard-emails');
    expect(target('GET', '/dashboard/emails/msg_1')).toBe('dashboard-emails');
    expect(target('POST', '/dashboard/emails/test')).toBe('dashboard-send');
    expect(target('GET', '/dashboard/received/inb_1')).toBe('dashboard-emails');
    expect(target('POST', '/dashboard/domains/dom_1/apply')).toBe('dashboard-domains');
    expect(target('GET', '/dashboard/domains')).toBe('dashboard-domains');
    expect(target('POST', '/dashboard/validations')).toBe('dashboard-validations');
    expect(target('POST', '/dashboard/invitations')).toBe('dashboard-send');
    expect(target('GET', '/dashboard/emails/testing')).toBe('dashboard-emails');
    for (const path of [
      '/dashboard',
      '/dashboard/sign-in',
      '/dashboard/api-keys',
      '/dashboard/webhooks/wh_1',
      '/dashboard/emailsx',
      '/dashboard/assets/app.css',
      '/api/events',
    ]) {
      expect({ path, target: target('GET', path) }).toEqual({ path, target: 'dashboard' });
    }
  });

  test('their grants are those of the groups whose use cases their pages run, and nothing more', () => {
    expect(group('dashboard').grants).toEqual<Grant[]>([
      { resource: { kind: 'table' }, access: 'readWrite' },
      // encrypt: webhook signing secrets; decrypt: the OpenID Connect client secret (docs/dashboard.md).
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ]);
    expect(group('dashboard-emails').grants).toEqual<Grant[]>([
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
    ]);
    expect(group('dashboard-send').grants).toEqual(group('dashboard-emails').grants);
    expect(group('dashboard-domains').grants).toEqual<Grant[]>([
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      { resource: { kind: 'route53' }, access: 'manageRecords' },
      { resource: { kind: 'ses' }, access: 'manageIdentities' },
      { resource: { kind: 'ses' }, access: 'manageTenants' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ]);
    for (const name of Object.keys(ROUTES))
      for (const grant of group(name).grants) expect({ name, grant, held: holders(grant).length > 0 }).toEqual({ name, grant, held: true });
    expect(holders({ resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' })).toEqual(['webhooks']);
    expect(holders({ resource: { kind: 'secretsKey' }, access: 'encrypt' })).toContain('webhooks');
    expect(holders({ resource: { kind: 'route53' }, access: 'manageRecords' })).toEqual(['domains']);
  });

  test('routes each route key to its function', () => {
    const integrations = s.template.findResources('AWS::ApiGatewayV2::Integration') as Record<
      string,
      { Properties: { IntegrationUri: unknown } }
    >;
    for (const [name, routeKeys] of Object.entries(ROUTES)) {
      const fnId = logicalId(s.stack, s.stack.api.functions[name]!);
      for (const routeKey of routeKeys) {
        const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } })) as {
          Properties: { Target: { 'Fn::Join': [string, unknown[]] } };
        }[];
        expect(routes).toHaveLength(1);
        const integrationId = (routes[0]!.Properties.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
        expect(JSON.stringify(integrations[integrationId]!.Properties.IntegrationUri)).toContain(fnId);
      }
    }
  });

  test('none may send email, schedule or publish; the main one sends to the deliveries queue only, dashboard-emails touches no queue', () => {
    for (const name of Object.keys(ROUTES)) {
      const actions = functionActions(s.template, s.stack, name);
      expect(actions).toEqual(
        expect.arrayContaining([
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:Query',
          'dynamodb:BatchGetItem',
        ]),
      );
      expect(actions).not.toContain('ses:SendEmail');
      expect(actions).not.toContain('ses:SendRawEmail');
      for (const prefix of ['sns:', 'scheduler:', 'iam:']) expect(actions.filter((action) => action.startsWith(prefix))).toEqual([]);
      expect(Object.keys(functionEnv(s.template, s.stack, name))).toContain(TABLE.envVar);
    }
    const deliveries = { 'Fn::GetAtt': [logicalId(s.stack, s.stack.messaging.queues.webhookDeliveries), 'Arn'] };
    const sqs = functionStatements(s.template, s.stack, 'dashboard').filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    expect(sqs.flatMap(resourcesOf)).toEqual(sqs.map(() => deliveries));
    expect(Object.keys(functionEnv(s.template, s.stack, 'dashboard'))).toContain(QUEUES.webhookDeliveries.envVar);
    expect(functionActions(s.template, s.stack, 'dashboard')).not.toContain('s3:GetObject*');
    expect(
      functionActions(s.template, s.stack, 'dashboard-emails').filter((action) => action.startsWith('sqs:') || action.startsWith('kms:')),
    ).toEqual([]);
    expect(functionActions(s.template, s.stack, 'dashboard-emails')).toEqual(expect.arrayContaining(['s3:PutObject', 's3:GetObject*']));
    expect(
      functionActions(s.template, s.stack, 'dashboard-send').filter((action) => action.startsWith('sqs:') || action.startsWith('kms:')),
    ).toEqual([]);
  });
});
