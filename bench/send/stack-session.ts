/**
 * The bench's hold on a started stack: its environment copied into this process, then the checkout's
 * product modules loaded (they read the environment when loaded) and its services built; the stack's
 * process tree; and the bench's own SQS client for the drain checks (not a call of the service: never
 * delayed).
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { descendants } from '../lib/process-tree';
import type { BenchSdk } from './bench-sdk';
import { loadFrom, MOVED, type Checkout, type SpawnedStackLike, type StackInfoLike } from './checkout';

/** The checkout's `createAccount` use case (shared/usecases/access/accounts). */
export type CreateAccount = (services: unknown, input: Record<string, unknown>) => Promise<{ account: { id: string }; secret: string }>;

export interface StackSession {
  info: StackInfoLike;
  /** The stack's Node process. */
  stackPid: number;
  /** Its process tree (Node, DynamoDB Local, launcher). */
  pids: number[];
  config: { tableName: string; region: string };
  services: unknown;
  createAccount: CreateAccount;
  control: SQSClient;
}

export function openStackSession(
  checkout: Checkout,
  stack: SpawnedStackLike,
  dataDir: string,
  benchSdk: BenchSdk | undefined,
): StackSession {
  const info = checkout.readStackFile(dataDir)!;
  Object.assign(process.env, info.env);
  // Product modules read the environment when loaded: load them (this checkout's) after it is set.
  const { buildServices } = loadFrom(checkout.root, 'shared/services');
  const { loadConfig } = loadFrom(checkout.root, MOVED.config);
  const { createAccount } = loadFrom(checkout.root, MOVED.accounts);
  const config = loadConfig(process.env);
  const services = buildServices(config);
  const pids = descendants(stack.child.pid!);
  const control = new SQSClient({ region: config.region, endpoint: info.env.AWS_ENDPOINT_URL_SQS });
  benchSdk?.tag(control, 'bench-control');
  return { info, stackPid: info.pid, pids, config, services, createAccount, control };
}
