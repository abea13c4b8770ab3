/**
 * The template's compute, read for the local runtime: each AWS::Lambda::Function with its code, handler,
 * timeout, memory, environment and role; each AWS::Lambda::EventSourceMapping (SQS queues and the table's
 * stream); each HTTP API route to its function; each EventBridge rule's schedule.
 *
 * Code: the template names an asset (a zip of the function's bundle). The local cloud runs the bundle's
 * source instead: the function's Description is `mailservice <name>` (infra/constructs/service-function.ts)
 * and `<name>` is the function of infra/functions.ts whose entry file the bundle is built from. The handler
 * `index.handler` is that entry's `handler` export. Defaults are Lambda's (timeout 3 s, memory 128 MB, batch
 * size 10 for SQS and 100 for streams: https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-lambda-function.html
 * and .../aws-resource-lambda-eventsourcemapping.html).
 */
import type { FilterPattern } from '#infra/definitions';
import { functionEntries } from '#infra/functions';
import type { DeployedStack } from './deployed-stack';

export interface DeployedFunction {
  logicalId: string;
  /** The function's name in infra/functions.ts (its bundle's directory). */
  name: string;
  /** Lambda's function name (physical). */
  functionName: string;
  arn: string;
  /** Source entry file (relative to the project root) and the export the handler names. */
  entry: string;
  handlerExport: string;
  /** Lambda's runtime identifier (nodejs22.x). */
  runtime: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** Environment.Variables, resolved. */
  environment: Record<string, string>;
  roleArn: string;
  /** The role's logical id (its policies are the IAM policies naming it). */
  roleLogicalId: string;
}

export interface QueueEventSource {
  kind: 'sqs';
  function: DeployedFunction;
  queueArn: string;
  batchSize: number;
  maxBatchingWindowSeconds: number;
  maxConcurrency?: number;
  reportBatchItemFailures: boolean;
}

export interface StreamEventSource {
  kind: 'stream';
  function: DeployedFunction;
  streamArn: string;
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  batchSize: number;
  maxBatchingWindowMs: number;
  /** Filter patterns (parsed JSON, the syntax of FilterPattern, infra/definitions/stream-workers.ts): an event passing any is delivered. */
  filters: FilterPattern[];
  /** -1: until the record expires. */
  retryAttempts: number;
  bisectBatchOnFunctionError: boolean;
  reportBatchItemFailures: boolean;
  onFailureArn?: string;
}

export interface DeployedRoute {
  routeKey: string;
  function: DeployedFunction;
  /** The HTTP API the route belongs to (its Ref: ./physical-records.ts). */
  apiId: string;
}

/** An HTTP API of the template with its stages' names and whether its default execute-api endpoint is on. */
export interface DeployedApi {
  apiId: string;
  stages: string[];
  /** False when DisableExecuteApiEndpoint is true: the API is then reachable only through custom domain names. */
  executeApiEndpoint: boolean;
}

export interface DeployedSchedule {
  function: DeployedFunction;
  /** EventBridge `rate(n unit)`, in milliseconds. */
  everyMs: number;
}

const PROPERTY_DEFAULTS = { Timeout: 3, MemorySize: 128 };

interface FunctionProperties {
  Description?: string;
  Handler?: string;
  Timeout?: number;
  MemorySize?: number;
  Runtime?: string;
  Environment?: { Variables?: Record<string, string> };
  Role: string;
}

function roleLogicalIdOf(stack: DeployedStack, logicalId: string): string {
  const role = stack.resource(logicalId).Properties?.Role as { 'Fn::GetAtt'?: [string, string] } | undefined;
  const target = role?.['Fn::GetAtt'];
  if (target?.[1] !== 'Arn') throw new Error(`${logicalId}: the local cloud needs Role as Fn::GetAtt of a role in the template`);
  return target[0];
}

export function readFunctions(stack: DeployedStack): DeployedFunction[] {
  const entries = new Map(functionEntries().map((entry) => [entry.name, entry.entry]));
  return stack.ofType('AWS::Lambda::Function').map((logicalId) => {
    const properties = stack.properties<FunctionProperties>(logicalId);
    const name = /^mailservice (\S+)$/.exec(properties.Description ?? '')?.[1];
    const entry = name ? entries.get(name) : undefined;
    if (!name || !entry)
      throw new Error(`${logicalId}: its Description "${properties.Description}" names no function of infra/functions.ts`);
    const [file, handlerExport] = (properties.Handler ?? '').split('.');
    if (file !== 'index' || !handlerExport)
      throw new Error(`${logicalId}: handler ${properties.Handler} is not index.<export> (the bundle layout of infra/functions.ts)`);
    if (!properties.Runtime?.startsWith('nodejs')) throw new Error(`${logicalId}: runtime ${properties.Runtime} is not Node.js`);
    return {
      logicalId,
      name,
      functionName: stack.record(logicalId).name!,
      arn: stack.record(logicalId).attributes.Arn as string,
      entry,
      handlerExport,
      runtime: properties.Runtime,
      timeoutSeconds: properties.Timeout ?? PROPERTY_DEFAULTS.Timeout,
      memoryMb: properties.MemorySize ?? PROPERTY_DEFAULTS.MemorySize,
      environment: properties.Environment?.Variables ?? {},
      roleArn: properties.Role,
      roleLogicalId: roleLogicalIdOf(stack, logicalId),
    };
  });
}

function byArn(functions: DeployedFunction[], arnOrName: string, where: string): DeployedFunction {
  const found = functions.find((fn) => fn.arn === arnOrName || fn.functionName === arnOrName);
  if (!found) throw new Error(`${where}: no function ${arnOrName} in the template`);
  return found;
}

interface EventSourceMappingProperties {
  FunctionName: string;
  EventSourceArn: string;
  Enabled?: boolean;
  BatchSize?: number;
  MaximumBatchingWindowInSeconds?: number;
  ScalingConfig?: { MaximumConcurrency?: number };
  FunctionResponseTypes?: string[];
  StartingPosition?: 'TRIM_HORIZON' | 'LATEST';
  FilterCriteria?: { Filters?: { Pattern: string }[] };
  MaximumRetryAttempts?: number;
  BisectBatchOnFunctionError?: boolean;
  DestinationConfig?: { OnFailure?: { Destination: string } };
}

export function readEventSources(stack: DeployedStack, functions: DeployedFunction[]): (QueueEventSource | StreamEventSource)[] {
  const sources: (QueueEventSource | StreamEventSource)[] = [];
  for (const id of stack.ofType('AWS::Lambda::EventSourceMapping')) {
    const p = stack.properties<EventSourceMappingProperties>(id);
    if (p.Enabled === false) continue;
    const fn = byArn(functions, p.FunctionName, id);
    const reportBatchItemFailures = (p.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures');
    if (p.EventSourceArn.startsWith('arn:aws:sqs:')) {
      if (p.FilterCriteria) throw new Error(`${id}: the local cloud does not filter SQS event sources`);
      sources.push({
        kind: 'sqs',
        function: fn,
        queueArn: p.EventSourceArn,
        batchSize: p.BatchSize ?? 10,
        maxBatchingWindowSeconds: p.MaximumBatchingWindowInSeconds ?? 0,
        maxConcurrency: p.ScalingConfig?.MaximumConcurrency,
        reportBatchItemFailures,
      });
    } else if (p.EventSourceArn.startsWith('arn:aws:dynamodb:') && p.EventSourceArn.includes('/stream/')) {
      if (!p.StartingPosition) throw new Error(`${id}: a stream event source needs StartingPosition`);
      sources.push({
        kind: 'stream',
        function: fn,
        streamArn: p.EventSourceArn,
        startingPosition: p.StartingPosition,
        batchSize: p.BatchSize ?? 100,
        maxBatchingWindowMs: (p.MaximumBatchingWindowInSeconds ?? 0) * 1000,
        filters: (p.FilterCriteria?.Filters ?? []).map((filter) => JSON.parse(filter.Pattern) as FilterPattern),
        retryAttempts: p.MaximumRetryAttempts ?? -1,
        bisectBatchOnFunctionError: p.BisectBatchOnFunctionError ?? false,
        reportBatchItemFailures,
        onFailureArn: p.DestinationConfig?.OnFailure?.Destination,
      });
    } else {
      throw new Error(`${id}: the local cloud has no event source for ${p.EventSourceArn}`);
    }
  }
  return sources;
}

export function readRoutes(stack: DeployedStack, functions: DeployedFunction[]): DeployedRoute[] {
  const integrations = new Map<string, DeployedFunction>();
  for (const id of stack.ofType('AWS::ApiGatewayV2::Integration')) {
    const p = stack.properties<{ IntegrationType: string; IntegrationUri: string; PayloadFormatVersion?: string }>(id);
    if (p.IntegrationType !== 'AWS_PROXY' || p.PayloadFormatVersion !== '2.0')
      throw new Error(`${id}: the local API gateway runs Lambda proxy integrations of payload format 2.0 only`);
    integrations.set(stack.record(id).ref as string, byArn(functions, p.IntegrationUri, id));
  }
  return stack.ofType('AWS::ApiGatewayV2::Route').map((id) => {
    const p = stack.properties<{ ApiId: string; RouteKey: string; Target?: string; AuthorizationType?: string }>(id);
    if (p.AuthorizationType && p.AuthorizationType !== 'NONE')
      throw new Error(`${id}: the local API gateway has no ${p.AuthorizationType} authorizer`);
    const integrationId = /^integrations\/(.+)$/.exec(p.Target ?? '')?.[1];
    const fn = integrationId ? integrations.get(integrationId) : undefined;
    if (!fn) throw new Error(`${id}: route ${p.RouteKey} has no integration in the template`);
    return { routeKey: p.RouteKey, function: fn, apiId: p.ApiId };
  });
}

/**
 * The template's HTTP APIs (AWS::ApiGatewayV2::Api) and their stages (AWS::ApiGatewayV2::Stage):
 * "DisableExecuteApiEndpoint: Specifies whether clients can invoke your API by using the default execute-api
 * endpoint. [...] To require that clients use a custom domain name to invoke your API, disable the default
 * endpoint" (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-apigatewayv2-api.html).
 */
export function readApis(stack: DeployedStack): DeployedApi[] {
  const apis = new Map<string, DeployedApi>();
  for (const id of stack.ofType('AWS::ApiGatewayV2::Api')) {
    const p = stack.properties<{ DisableExecuteApiEndpoint?: boolean }>(id);
    const apiId = stack.record(id).ref as string;
    apis.set(apiId, { apiId, stages: [], executeApiEndpoint: p.DisableExecuteApiEndpoint !== true });
  }
  for (const id of stack.ofType('AWS::ApiGatewayV2::Stage')) {
    const p = stack.properties<{ ApiId: string; StageName: string }>(id);
    const api = apis.get(p.ApiId);
    if (!api) throw new Error(`${id}: stage ${p.StageName} of an API the template does not have (${p.ApiId})`);
    api.stages.push(p.StageName);
  }
  return [...apis.values()];
}

const RATE_UNITS: Record<string, number> = {
  minute: 60_000,
  minutes: 60_000,
  hour: 3_600_000,
  hours: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
};

export function readSchedules(stack: DeployedStack, functions: DeployedFunction[]): DeployedSchedule[] {
  const schedules: DeployedSchedule[] = [];
  for (const id of stack.ofType('AWS::Events::Rule')) {
    const p = stack.properties<{ ScheduleExpression?: string; State?: string; Targets?: { Arn: string }[] }>(id);
    if (!p.ScheduleExpression || p.State === 'DISABLED') continue;
    // https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html: rate(value unit).
    const rate = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(p.ScheduleExpression);
    if (!rate) throw new Error(`${id}: the local cloud runs rate() schedules only, not ${p.ScheduleExpression}`);
    for (const target of p.Targets ?? [])
      schedules.push({ function: byArn(functions, target.Arn, id), everyMs: Number(rate[1]) * RATE_UNITS[rate[2]!]! });
  }
  return schedules;
}
