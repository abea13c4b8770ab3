/**
 * Where the local cloud's other programs start: the workers thread and the relay task's process. From the
 * sources, their `.cjs` entries (./workers/workers-thread-entry.cjs, ./relay-task/relay-task-entry.cjs, which
 * load the TypeScript through tsx); when the local cloud runs from its bundles (localstack/launch.cjs), the
 * bundles it built, which it names on the global below.
 */
import { join } from 'node:path';

/** Set by localstack/launch.cjs: the bundles' files. */
const BUNDLES = Symbol.for('mailservice.localCloudBundles');

interface LocalCloudBundles {
  workers: string;
  relay: string;
}

function bundles(): LocalCloudBundles | undefined {
  return (globalThis as { [BUNDLES]?: LocalCloudBundles })[BUNDLES];
}

/** The workers thread's program (./workers/workers-thread.ts). */
export function workersThreadEntry(): string {
  return bundles()?.workers ?? join(__dirname, 'workers', 'workers-thread-entry.cjs');
}

/** The relay task process's program (./relay-task/relay-task-runtime.ts). */
export function relayTaskEntry(): string {
  return bundles()?.relay ?? join(__dirname, 'relay-task', 'relay-task-entry.cjs');
}
