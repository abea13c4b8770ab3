/**
 * The product modules of a checkout (this one, or the baseline's worktree), loaded by path: each target
 * starts its own stack with its own harness and loads its own services, so a baseline commit is measured
 * with the code it had.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

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
}

/** A module of the checkout at `root` by its path from that root, loaded now. */
// eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any
export const loadFrom = (root: string, path: string): any => require(join(root, path));

export const checkoutAt = (root: string): Checkout => ({
  root,
  spawnStack: (options) => loadFrom(root, 'test/integration/harness/spawn-stack').spawnStack(options),
  readStackFile: (dataDir) => loadFrom(root, 'localstack/cloud/stack-file').readStackFile(dataDir),
  queues: () => Object.values(loadFrom(root, 'infra/definitions').QUEUES),
});

/** The checkout's HEAD, short. */
export const commitOf = (root: string): string => execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
