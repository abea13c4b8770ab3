/**
 * What the benches that drive a whole local cloud share (bench:automations, bench:dashboard, bench:cold):
 * an in-memory stack in a scratch directory, its environment copied into this process, then stopped and
 * its directory removed at the end, Ctrl-C included. Product modules read the environment when they are
 * loaded, so a bench loads them inside `run`, with `loadProduct`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AWS_SETTINGS_ENV } from './aws-settings';

export const ROOT = resolve(__dirname, '..', '..');

/** A module of the project by its path from the root, loaded now (after the stack's environment is set). */
// eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any
export const loadProduct = (path: string): any => require(join(ROOT, path));

export interface BenchStack {
  /** The spawned stack (test/integration/harness/spawn-stack.ts): apiUrl, child, stop. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  stack: any;
  /** Its stack file: the environment a client of it needs. */
  info: { env: Record<string, string> };
}

export async function withInMemoryStack<T>(
  name: string,
  options: { timeoutMs?: number; env?: Record<string, string> },
  run: (bench: BenchStack) => Promise<T>,
): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), `mailservice-bench-${name}-`));
  const { spawnStack } = loadProduct('test/integration/harness/spawn-stack');
  const { readStackFile } = loadProduct('localstack/cloud/stack/stack-file');
  // The template's task periods unless the bench sets its own (the test harness's stacks run the reconciler every 10 s).
  const stack = await spawnStack({
    dataDir: scratch,
    inMemory: true,
    timeoutMs: options.timeoutMs ?? 120_000,
    env: { LOCAL_TASK_PERIOD_MS: '', ...AWS_SETTINGS_ENV, ...options.env },
  });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stack.stop('SIGINT').finally(() => rmSync(scratch, { recursive: true, force: true })));
  const interrupted = () => void stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  try {
    const info = readStackFile(scratch);
    Object.assign(process.env, info.env);
    return await run({ stack, info });
  } finally {
    process.off('SIGINT', interrupted);
    await stop();
  }
}
