import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { apiRoutes } from '../api-routes';
import { API_GROUPS, MTA_STS_API } from '../definitions';
import { acknowledgeRule } from './nag';
import { ServiceFunction, type FunctionDefaults } from './service-function';
import { pascalCase } from './util';

/** API Gateway's HTTP API integration timeout is 30 s: the function gives up just before. */
export const API_FUNCTION_TIMEOUT = Duration.seconds(29);

/**
 * One access-log line per request (JSON, https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-logging-variables.html).
 * The route key, never the path or query: signed links (/unsubscribe/..., /t/...) carry their token in the
 * path. No header is logged (API keys travel in Authorization).
 */
export const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
});

/**
 * The HTTP API: one Lambda per API_GROUPS entry, each of its routes sent to its integration, and access
 * logs of its default stage in a log group of their own (cdk-nag APIG1).
 */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  /**
   * The HTTP API of hosted MTA-STS policies (MTA_STS_API): no execute-api endpoint; reached only through the
   * custom domain names the domains group maps to its default stage at run time (MTA_STS_API_ID).
   */
  readonly mtaStsApi: apigw.HttpApi;
  /**
   * The HTTP API of link domains: the links group's routes, no execute-api endpoint; reached only through the
   * custom domain names `links.<domain>` the domain-health task maps to it (LINKS_API_ID; docs/tracking.md).
   */
  readonly linksApi: apigw.HttpApi;
  /** Lambda of each API group, by group name. */
  readonly functions: Record<string, lambda.Function> = {};

  constructor(scope: Construct, id: string, props: FunctionDefaults) {
    super(scope, id);
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', { description: 'mailservice HTTP API' });
    // Authentication is the application's: API keys (Bearer, hashed in the table) checked by every group's
    // handler, dashboard sessions likewise; signed links and the OpenAPI document are public by design.
    acknowledgeRule(
      this.httpApi,
      'APIG4',
      'Every route is authorised by the application: API keys (Authorization: Bearer, looked up hashed in the table) and dashboard sessions are checked in the handlers (shared/doors/http/middleware/authenticate.ts, docs/dashboard.md); signed unsubscribe and tracking links and the OpenAPI reference are public by design. An API Gateway authorizer would add a second Lambda call to every request for the same check.',
    );
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const defaultStage = this.httpApi.defaultStage?.node.defaultChild as apigw.CfnStage | undefined;
    if (!defaultStage) throw new Error('The HTTP API has no default stage');
    defaultStage.accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: ACCESS_LOG_FORMAT };

    for (const group of API_GROUPS) {
      const logicalId = pascalCase(group.name);
      const fn = new ServiceFunction(this, logicalId, {
        ...props,
        name: group.name,
        grants: group.grants,
        timeout: API_FUNCTION_TIMEOUT,
        memoryMb: group.memoryMb,
      }).function;
      this.functions[group.name] = fn;

      const integration = new HttpLambdaIntegration(`${logicalId}Integration`, fn);
      for (const route of apiRoutes(group)) {
        const { method, path } = parseRoute(route, group.name);
        this.httpApi.addRoutes({ path, methods: [method], integration });
      }
    }

    const mtaSts = new ServiceFunction(this, pascalCase(MTA_STS_API.name), {
      ...props,
      name: MTA_STS_API.name,
      grants: MTA_STS_API.grants,
      timeout: API_FUNCTION_TIMEOUT,
      memoryMb: MTA_STS_API.memoryMb,
    }).function;
    this.functions[MTA_STS_API.name] = mtaSts;
    this.mtaStsApi = this.customDomainsOnlyApi('MtaStsApi', {
      description: 'mailservice hosted MTA-STS policies (custom domains only)',
      public:
        'RFC 8461 section 3.3: senders fetch an MTA-STS policy with a plain HTTPS GET, no credentials; the policy is public by design (it names the MX hosts, as DNS does).',
      routes: MTA_STS_API.routes,
      fn: mtaSts,
      accessLogs,
    });
    // Link domains: the links group's routes (its function) behind the custom domain names links.<domain>.
    const links = API_GROUPS.find((group) => group.name === 'links');
    if (!links) throw new Error('The links API group is missing');
    this.linksApi = this.customDomainsOnlyApi('LinksApi', {
      description: "mailservice link domains' tracked links (custom domains only)",
      public:
        'Signed unsubscribe, open and click links (docs/tracking.md): the signed token in the path is the authority, as on the main API; these links are public by design.',
      routes: apiRoutes(links),
      fn: this.functions[links.name] as lambda.Function,
      accessLogs,
    });
  }

  /**
   * An HTTP API with no execute-api endpoint, reached only through the custom domain names the domain-health
   * task maps to its default stage at run time, its routes sent to `fn`, its access logs beside the main API's.
   */
  private customDomainsOnlyApi(
    id: string,
    options: { description: string; public: string; routes: string[]; fn: lambda.Function; accessLogs: logs.LogGroup },
  ): apigw.HttpApi {
    const api = new apigw.HttpApi(this, id, { description: options.description, disableExecuteApiEndpoint: true });
    acknowledgeRule(api, 'APIG4', options.public);
    const stage = api.defaultStage?.node.defaultChild as apigw.CfnStage | undefined;
    if (!stage) throw new Error(`The HTTP API ${id} has no default stage`);
    stage.accessLogSettings = { destinationArn: options.accessLogs.logGroupArn, format: ACCESS_LOG_FORMAT };
    const integration = new HttpLambdaIntegration(`${id}Integration`, options.fn);
    for (const route of options.routes) {
      const { method, path } = parseRoute(route, id);
      api.addRoutes({ path, methods: [method], integration });
    }
    return api;
  }
}

const METHODS = new Set<string>(Object.values(apigw.HttpMethod));

/** 'ANY /emails/{proxy+}' -> { method: ANY, path: '/emails/{proxy+}' }. */
export function parseRoute(route: string, group = '?'): { method: apigw.HttpMethod; path: string } {
  const match = /^([A-Z]+) (\/\S*)$/.exec(route);
  if (!match || !METHODS.has(match[1] ?? '')) {
    throw new Error(
      `Invalid route "${route}" in API group "${group}": expected "<METHOD> /path" with METHOD one of ${[...METHODS].join(', ')}`,
    );
  }
  return { method: match[1] as apigw.HttpMethod, path: match[2] as string };
}
