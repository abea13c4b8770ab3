/**
 * The public links group (unsubscribe, tracking): its routes, its grants, and LINKS_BASE_URL in every function;
 * API_BASE_URL (the API's own endpoint, where the MCP door calls it: docs/mcp.md) in every API function.
 */
import { apiRoutes } from '#infra/api-routes';
import { API_GROUPS, QUEUES, SCHEDULED_TASKS, STREAM_WORKERS, TABLE, WORKERS } from '#infra/definitions';
import { functionActions, functionEnv, logicalId, synth, defaultStack, type Synthesised } from '../helpers';

let s: Synthesised;
beforeAll(() => {
  s = defaultStack();
});
afterAll(() => s?.cleanup());

const allFunctions = () => [...API_GROUPS, ...WORKERS, ...STREAM_WORKERS, ...SCHEDULED_TASKS].map((definition) => definition.name);

describe('links API group', () => {
  test('is defined with its entry and its two public route prefixes', () => {
    const group = API_GROUPS.find((g) => g.name === 'links')!;
    expect(group).toMatchObject({ entry: 'functions/api/links/handler.ts' });
    expect(apiRoutes(group)).toEqual(['ANY /unsubscribe/{proxy+}', 'ANY /t/{proxy+}']);
  });

  test("routes ANY /unsubscribe/{proxy+} and ANY /t/{proxy+} to the links function, on the API and on the link domains' API", () => {
    const integrations = s.template.findResources('AWS::ApiGatewayV2::Integration') as Record<
      string,
      { Properties: { IntegrationUri: unknown } }
    >;
    const fnId = logicalId(s.stack, s.stack.api.functions.links!);
    const apiIds = [logicalId(s.stack, s.stack.api.httpApi), logicalId(s.stack, s.stack.api.linksApi)].sort();
    for (const routeKey of ['ANY /unsubscribe/{proxy+}', 'ANY /t/{proxy+}']) {
      const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } })) as {
        Properties: { ApiId: { Ref: string }; Target: { 'Fn::Join': [string, unknown[]] } };
      }[];
      expect(routes.map((route) => route.Properties.ApiId.Ref).sort()).toEqual(apiIds);
      for (const route of routes) {
        const integrationId = (route.Properties.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
        expect(JSON.stringify(integrations[integrationId]!.Properties.IntegrationUri)).toContain(fnId);
      }
    }
  });

  test("the link domains' API has no execute-api endpoint and only the links routes; the domain-health task is told its id", () => {
    const linksApiId = logicalId(s.stack, s.stack.api.linksApi);
    expect(s.template.toJSON().Resources[linksApiId].Properties.DisableExecuteApiEndpoint).toBe(true);
    const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route')) as {
      Properties: { ApiId: { Ref: string }; RouteKey: string };
    }[];
    expect(
      routes
        .filter((route) => route.Properties.ApiId.Ref === linksApiId)
        .map((route) => route.Properties.RouteKey)
        .sort(),
    ).toEqual(['ANY /t/{proxy+}', 'ANY /unsubscribe/{proxy+}']);
    expect(functionEnv(s.template, s.stack, 'domain-health').LINKS_API_ID).toEqual({ Ref: linksApiId });
  });

  test('may use the table, open (never seal) secrets and publish events, and nothing else', () => {
    const actions = new Set(functionActions(s.template, s.stack, 'links'));
    for (const action of [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:Query',
      'kms:Decrypt',
      'sqs:SendMessage',
    ])
      expect(actions).toContain(action);
    expect([...actions].filter((action) => action.startsWith('kms:'))).toEqual(['kms:Decrypt']);
    for (const prefix of ['sns:', 'ses:', 's3:', 'scheduler:', 'iam:'])
      expect([...actions].filter((action) => action.startsWith(prefix))).toEqual([]);
    const env = functionEnv(s.template, s.stack, 'links');
    expect(Object.keys(env)).toEqual(expect.arrayContaining([TABLE.envVar, QUEUES.webhookEvents.envVar]));
  });

  test('the send worker may seal (it creates the first link key) and open secrets', () => {
    expect(
      functionActions(s.template, s.stack, 'send-email')
        .filter((action) => action.startsWith('kms:'))
        .sort(),
    ).toEqual(['kms:Decrypt', 'kms:Encrypt']);
  });
});

describe('LINKS_BASE_URL', () => {
  test('every function gets the HTTP API endpoint by default', () => {
    const endpoint = s.stack.resolve(s.stack.api.httpApi.apiEndpoint);
    expect(JSON.stringify(endpoint)).toContain(logicalId(s.stack, s.stack.api.httpApi));
    for (const name of allFunctions())
      expect({ name, value: functionEnv(s.template, s.stack, name).LINKS_BASE_URL }).toEqual({ name, value: endpoint });
  });

  test('`-c linksBaseUrl=...` replaces it everywhere, the relay/MX task included', () => {
    const custom = synth({ context: { linksBaseUrl: 'https://links.example.net' } });
    try {
      for (const name of allFunctions())
        expect({ name, value: functionEnv(custom.template, custom.stack, name).LINKS_BASE_URL }).toEqual({
          name,
          value: 'https://links.example.net',
        });
      const task = Object.values(custom.template.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties;
      const containerEnv = Object.fromEntries(
        (task.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]),
      );
      expect(containerEnv.LINKS_BASE_URL).toBe('https://links.example.net');
    } finally {
      custom.cleanup();
    }
  });
});

describe('API_BASE_URL', () => {
  test("every API function (the MCP door's included) gets the HTTP API endpoint, whatever linksBaseUrl says", () => {
    const endpoint = s.stack.resolve(s.stack.api.httpApi.apiEndpoint);
    expect(API_GROUPS.map((group) => group.name)).toContain('mcp');
    for (const { name } of API_GROUPS)
      expect({ name, value: functionEnv(s.template, s.stack, name).API_BASE_URL }).toEqual({ name, value: endpoint });
  });
});
