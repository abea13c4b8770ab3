/**
 * The product modules of a checkout (this one, or the baseline's worktree), loaded by path: each target
 * starts its own stack with its own harness and loads its own services, so a baseline commit is measured
 * with the code it had.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { IndexShape } from '../lib/cost/partition-writes';

export interface StackInfoLike {
  pid: number;
  env: Record<string, string>;
}

export interface SpawnedStackLike {
  apiUrl: string;
  child: { pid?: number };
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface QueueDefinitionLike {
  name: string;
  dlqName: string;
  envVar: string;
}

export interface Checkout {
  root: string;
  spawnStack(options: { dataDir: string; inMemory: boolean; env?: Record<string, string>; timeoutMs?: number }): Promise<SpawnedStackLike>;
  readStackFile(dataDir: string): StackInfoLike | null;
  queues(): QueueDefinitionLike[];
  /** The table's global secondary indexes as this checkout defines them (infra/definitions/table.ts TABLE). */
  tableIndexes(): IndexShape[];
}

/**
 * A module of the checkout at `root` by its path from that root, loaded now. A module that moved is given
 * by its paths, newest first (a baseline checkout may be older than the move): the first that resolves.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadFrom(root: string, path: string | readonly string[]): any {
  const paths = typeof path === 'string' ? [path] : path;
  const found = paths.find((candidate) => {
    try {
      require.resolve(join(root, candidate));
      return true;
    } catch {
      return false;
    }
  });
  if (found === undefined) throw new Error(`none of ${paths.join(', ')} in ${root}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(root, found));
}

/** Where the modules a bench reaches into have lived (issue 31 moved them; issue 51 the stack file), newest first. */
export const MOVED = {
  config: ['shared/config/config', 'shared/config'],
  clients: ['shared/adapters/aws/clients', 'shared/aws/clients'],
  keys: ['shared/adapters/store/keys', 'shared/store/keys'],
  table: ['shared/adapters/store/table', 'shared/store/table'],
  accounts: ['shared/usecases/access/accounts', 'shared/usecases/accounts'],
  stackFile: ['localstack/cloud/stack/stack-file', 'localstack/cloud/stack-file'],
} as const;

export const checkoutAt = (root: string): Checkout => ({
  root,
  spawnStack: (options) => loadFrom(root, 'test/integration/harness/spawn-stack').spawnStack(options),
  readStackFile: (dataDir) => loadFrom(root, MOVED.stackFile).readStackFile(dataDir),
  queues: () => Object.values(loadFrom(root, 'infra/definitions').QUEUES),
  tableIndexes: () => loadFrom(root, 'infra/definitions').TABLE.globalSecondaryIndexes,
});

/** The checkout's HEAD, short. */
export const commitOf = (root: string): string =>
  execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
