/**
 * Deploys the synthesized template on the local cloud's emulators, in CloudFormation's order (a resource
 * after those it refers to): physical names first (./physical-names.ts, or the data folder's recorded
 * ones), then the table (its stream ARN is DynamoDB's), the KMS keys (their ids are KMS's), queues, topics,
 * subscriptions and buckets, SES configuration sets and the schedule group; then the compute is read with
 * every value resolved: functions, event source mappings, routes, schedules and the relay's task.
 * docs/local-cloud/template.md says what is deployed and what is not.
 */
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { CfnTemplate } from './cfn-types';
import { DeployedStack, type StackIdentity } from './deployed-stack';
import { deployEmail } from './deploy-email';
import { deployKeys } from './deploy-keys';
import { deployMessaging, type MessagingToDeploy } from './deploy-messaging';
import { ensureTable, type TableSpec } from './deploy-table';
import {
  readApis,
  readEventSources,
  readFunctions,
  readRoutes,
  readSchedules,
  type DeployedApi,
  type DeployedFunction,
  type DeployedRoute,
  type DeployedSchedule,
  type QueueEventSource,
  type StreamEventSource,
} from './functions';
import { readRelayTask, type RelayTask } from './relay-task';
import { LEGACY_TABLE_NAME, legacyPhysicalNames, readStackState, writeStackState } from './stack-state';

export interface LocalDeployment {
  stack: DeployedStack;
  tableName: string;
  streamArn?: string;
  functions: DeployedFunction[];
  queueSources: QueueEventSource[];
  streamSources: StreamEventSource[];
  routes: DeployedRoute[];
  /** The HTTP APIs with their stages and whether their execute-api endpoint is on. */
  apis: DeployedApi[];
  schedules: DeployedSchedule[];
  relayTask?: RelayTask;
  /** Queue URL by queue ARN (what event sources and on-failure destinations name). */
  queueUrls: Record<string, string>;
  /** How the physical names were chosen: recorded in the data folder, legacy names kept, or new. */
  names: 'recorded' | 'legacy' | 'new';
}

async function tableExists(dynamo: DynamoDBClient, name: string): Promise<boolean> {
  try {
    await dynamo.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ResourceNotFoundException') return false;
    throw error;
  }
}

export async function deployTemplate(input: {
  template: CfnTemplate;
  identity: StackIdentity;
  /** Where the data folder keeps its state; undefined: in memory (names by rule, nothing recorded). */
  dataDir?: string;
  clients: { dynamo: DynamoDBClient; ses: SESv2Client; scheduler: SchedulerClient; kms: KMSClient };
  fauxqs: MessagingToDeploy;
  visibilityOverrideSeconds?: number;
}): Promise<LocalDeployment> {
  const { template, identity, clients } = input;
  const state = readStackState(input.dataDir);
  let names: LocalDeployment['names'] = state ? 'recorded' : 'new';
  let recorded = state?.physicalNames ?? {};
  if (!state && input.dataDir && (await tableExists(clients.dynamo, LEGACY_TABLE_NAME))) {
    recorded = legacyPhysicalNames(template);
    names = 'legacy';
  }
  const stack = new DeployedStack(template, identity, recorded);

  const tables = stack.ofType('AWS::DynamoDB::Table');
  if (tables.length !== 1) throw new Error(`the local cloud deploys one table, the template has ${tables.length}`);
  const tableId = tables[0]!;
  const tableName = stack.record(tableId).name!;
  const { streamArn } = await ensureTable(clients.dynamo, tableName, stack.properties<TableSpec>(tableId));
  if (streamArn) stack.learn(tableId, { attributes: { StreamArn: streamArn } });

  const keyIds = await deployKeys(stack, clients.kms, recorded);
  deployMessaging(stack, input.fauxqs, { visibilityOverrideSeconds: input.visibilityOverrideSeconds });
  await deployEmail(stack, clients);

  const functions = readFunctions(stack);
  const sources = readEventSources(stack, functions);
  const queueUrls: Record<string, string> = {};
  for (const id of stack.ofType('AWS::SQS::Queue')) queueUrls[stack.record(id).attributes.Arn as string] = stack.record(id).ref as string;
  const deployment: LocalDeployment = {
    stack,
    tableName,
    streamArn,
    functions,
    queueSources: sources.filter((s): s is QueueEventSource => s.kind === 'sqs'),
    streamSources: sources.filter((s): s is StreamEventSource => s.kind === 'stream'),
    routes: readRoutes(stack, functions),
    apis: readApis(stack),
    schedules: readSchedules(stack, functions),
    relayTask: readRelayTask(stack),
    queueUrls,
    names,
  };
  writeStackState(input.dataDir, { stackName: identity.stackName, physicalNames: { ...stack.physicalNames(), ...keyIds } });
  return deployment;
}
