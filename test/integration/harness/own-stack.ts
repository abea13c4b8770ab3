/**
 * A test file's stack of its own (in memory, in a temporary folder), for tests that move its clock or need
 * a table and bucket no other file writes to: started before the file's tests, stopped and removed after.
 * The harness modules read TEST_STACK_DATA_DIR on first use, so import them (dynamically) in a `beforeAll`
 * registered after this call: Jest runs a file's `beforeAll` hooks in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStack, type SpawnedStack } from './spawn-stack';

/** `env`, or a function giving it when the stack starts (what a `beforeAll` registered before this call made: a server's address). */
export function useOwnStack(prefix: string, env?: Record<string, string> | (() => Record<string, string>)): { dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let own: SpawnedStack | undefined;
  beforeAll(async () => {
    // `env`: settings of this stack (shared/config/settings.ts: synthesis context, as on `npm start`).
    const settings = typeof env === 'function' ? env() : env;
    own = await spawnStack({ dataDir, inMemory: true, timeoutMs: 90_000, ...(settings ? { env: settings } : {}) });
    process.env.TEST_STACK_DATA_DIR = dataDir;
  }, 120_000);
  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir };
}
