import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_GROUPS } from '../definitions';
import { ServiceFunction, type FunctionDefaults } from './service-function';
import { pascalCase } from './util';

/** API Gateway's HTTP API integration timeout is 30 s: the function gives up just before. */
export const API_FUNCTION_TIMEOUT = Duration.seconds(29);

/** The HTTP API: one Lambda per API_GROUPS entry, each of its routes sent to its integration. */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  /** Lambda of each API group, by group name. */
  readonly functions: Record<string, lambda.Function> = {};

  constructor(scope: Construct, id: string, props: FunctionDefaults) {
    super(scope, id);
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', { description: 'mailservice HTTP API' });

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
      for (const route of group.routes) {
        const { method, path } = parseRoute(route, group.name);
        this.httpApi.addRoutes({ path, methods: [method], integration });
      }
    }
  }
}

const METHODS = new Set<string>(Object.values(apigw.HttpMethod));

/** 'ANY /emails/{proxy+}' -> { method: ANY, path: '/emails/{proxy+}' }. */
export function parseRoute(route: string, group = '?'): { method: apigw.HttpMethod; path: string } {
  const match = /^([A-Z]+) (\/\S*)$/.exec(route);
  if (!match || !METHODS.has(match[1] ?? '')) {
    throw new Error(`Invalid route "${route}" in API group "${group}": expected "<METHOD> /path" with METHOD one of ${[...METHODS].join(', ')}`);
  }
  return { method: match[1] as apigw.HttpMethod, path: match[2] as string };
}
