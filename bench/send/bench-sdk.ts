/**
 * The SDK preload in this process (lib/sdk-preload.cjs): the floors' calls counted (origin `bench`) and,
 * under --aws-latency, delayed as the stack's are; the bench's own control calls tagged `bench-control`.
 * Loaded before any SDK client exists; its environment is read once, then removed so that the stacks get
 * their own.
 */
import { join } from 'node:path';

export interface BenchSdk {
  /** Where the preload writes this process's counts. */
  dir: string;
  tag(client: unknown, origin: string): void;
}

export function loadBenchSdk(scratch: string, awsLatency: boolean): BenchSdk {
  const dir = join(scratch, 'bench-sdk');
  process.env.BENCH_SDK_DIR = dir;
  if (awsLatency) process.env.BENCH_AWS_LATENCY = '1';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const preload = require('../lib/sdk-preload.cjs') as { tag(client: unknown, origin: string): void };
  delete process.env.BENCH_SDK_DIR;
  delete process.env.BENCH_AWS_LATENCY;
  return { dir, tag: (client, origin) => preload.tag(client, origin) };
}
