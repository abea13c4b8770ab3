/**
 * The running stack's /health: each service probed with the local cloud's own clients, each worker, stream
 * mapping and scheduled task of the workers thread, and the SMTP relay and MX listeners (their address,
 * whether they listen, their open connections); `ok` when every one is up. Besides, what shows stuck work
 * before a customer sees it: each queue's backlog and oldest message, the scheduled tasks' reports (the
 * reconciler's re-drives) and the stream's reads. And what Lambda would bill so far (`lambda`): each
 * function's invocations, billed milliseconds and configured memory, both threads together.
 */
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListScheduleGroupsCommand } from '@aws-sdk/client-scheduler';
import { ListConfigurationSetsCommand } from '@aws-sdk/client-sesv2';
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import type { DnsEmulator } from '../emulators/dns';
import type { LocalPages } from './api/api-server';
import type { LocalClients } from './services/aws-clients';
import type { LocalMessaging } from './messaging/local-messaging';
import { addBilling, billingSnapshot, type FunctionBilling } from './lambda/lambda-billing';
import { queueBacklog } from './messaging/queue-backlog';
import type { LocalRelayTask } from './relay-task/relay-task';
import type { LocalDeployment } from './template/deploy';
import type { WorkersThread } from './workers/workers-host';

export interface StackParts {
  clients: LocalClients;
  dns: DnsEmulator;
  fauxqs: LocalMessaging;
  deployment: LocalDeployment;
  workers: WorkersThread;
  relay: LocalRelayTask;
}

/** Each service's state: 'up', or 'down: <why>'. */
async function serviceStates({ clients, dns }: StackParts): Promise<Record<string, string>> {
  const components: Record<string, string> = {};
  const check = async (name: string, probe: () => Promise<unknown>) => {
    try {
      await probe();
      components[name] = 'up';
    } catch (error) {
      components[name] = `down: ${(error as Error).message}`;
    }
  };
  await Promise.all([
    check('dynamodb', () => clients.dynamo.send(new ListTablesCommand({ Limit: 1 }))),
    check('sqs_sns_s3', () => clients.sqs.send(new ListQueuesCommand({ MaxResults: 1 }))),
    check('ses', () => clients.ses.send(new ListConfigurationSetsCommand({}))),
    check('scheduler', () => clients.scheduler.send(new ListScheduleGroupsCommand({}))),
    check('dns', async () => dns.listRecords()),
  ]);
  return components;
}

/** Each deployed function's billing so far, with its configured memory (MemorySize), zero when never invoked. */
function lambdaBilling(
  deployment: LocalDeployment,
  billed: Record<string, FunctionBilling>,
): Record<string, FunctionBilling & { memory_mb: number }> {
  return Object.fromEntries(
    deployment.functions.map((fn) => [fn.name, { ...(billed[fn.name] ?? { invocations: 0, billed_ms: 0 }), memory_mb: fn.memoryMb }]),
  );
}

export function stackHealth(parts: StackParts): LocalPages['health'] {
  const { deployment, workers, relay, fauxqs } = parts;
  const queueNames = deployment.stack.ofType('AWS::SQS::Queue').map((id) => deployment.stack.record(id).name!);
  return async () => {
    const components = await serviceStates(parts);
    for (const source of deployment.queueSources) components[`worker:${source.function.name}`] = workers.alive() ? 'up' : 'down';
    const { streams, streamReads, tasks, lambda } = await workers.status();
    for (const source of deployment.streamSources)
      components[`stream:${source.function.name}`] = workers.alive() ? (streams[source.function.name] ?? 'down: not running') : 'down';
    for (const schedule of deployment.schedules)
      components[`task:${schedule.function.name}`] = workers.alive()
        ? (tasks[schedule.function.name]?.state ?? 'down: not running')
        : 'down';
    const { smtp, mx } = await relay.health();
    const billed = lambdaBilling(deployment, addBilling(billingSnapshot(), lambda));
    return {
      ok: Object.values(components).every((state) => state === 'up') && smtp.state === 'up' && mx.state === 'up',
      components,
      queues: queueBacklog(fauxqs, queueNames),
      tasks,
      stream_reads: streamReads,
      lambda: billed,
      smtp,
      mx,
    };
  };
}
