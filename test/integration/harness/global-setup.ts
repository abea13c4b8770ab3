/** Starts one in-memory local cloud on ephemeral ports for the whole integration run. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStack, type SpawnedStack } from './spawn-stack';

declare global {
  // eslint-disable-next-line no-var
  var __LOCAL_CLOUD__: SpawnedStack | undefined;
}

export default async function globalSetup(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-it-'));
  // Short visibility timeouts: redelivery and DLQ redrive are observable in seconds.
  const stack = await spawnStack({ dataDir, inMemory: true, env: { LOCAL_QUEUE_VISIBILITY_SECONDS: '2' } });
  globalThis.__LOCAL_CLOUD__ = stack;
  // Test workers start after this and inherit these.
  process.env.TEST_STACK_DATA_DIR = dataDir;
  process.env.TEST_API_URL = stack.apiUrl;
}
