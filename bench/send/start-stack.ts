/**
 * A target's stack: one in-memory local cloud per checkout, started as the tests start it (that
 * checkout's spawn-stack), from this process's environment as it was before any stack's was added, with
 * the preloads the modes ask for in its NODE_OPTIONS (lib/cpu-profile-preload.cjs, lib/sdk-preload.cjs)
 * and the reconciler at AWS's cadence.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { checkoutAt, commitOf, type Checkout, type SpawnedStackLike } from './checkout';
import { log } from './log';
import { CPU_PROFILE_CHUNK_MS } from './measure/cpu-profiles';
import type { SendBenchOptions } from './options';
import type { Target } from './results';
import { AWS_SETTINGS_ENV } from '../lib/aws-settings';

/** This process's environment before any stack's was added to it (each stack must start from it). */
const PRISTINE_ENV = { ...process.env };

function restoreEnvironment() {
  for (const key of Object.keys(process.env)) if (!(key in PRISTINE_ENV)) delete process.env[key];
  Object.assign(process.env, PRISTINE_ENV);
}

export interface StackDirs {
  /** The stack's data folder (its stack file). */
  dataDir: string;
  /** --cpu-prof: the profile chunks. */
  profDir: string;
  /** The SDK preload's files. */
  sdkDir: string;
}

export interface StartedStack {
  checkout: Checkout;
  commit: string;
  stack: SpawnedStackLike;
  dirs: StackDirs;
}

export async function startStack(target: Target, scratch: string, options: SendBenchOptions): Promise<StartedStack> {
  // The previous stack's environment (endpoints, DNS_RESOLVERS, table name) must not leak into this one.
  restoreEnvironment();
  const checkout = checkoutAt(target.root);
  const commit = commitOf(target.root);
  const dataDir = mkdtempSync(join(scratch, `${target.label.split(' ')[0]}-`));
  const dirs = { dataDir, profDir: join(dataDir, 'cpu-prof'), sdkDir: join(dataDir, 'sdk') };
  const preloads = [...(options.cpuProf ? ['cpu-profile-preload.cjs'] : []), ...(options.observe ? ['sdk-preload.cjs'] : [])];
  log(
    `${target.label} (${target.root}, ${commit}): starting an in-memory local cloud${preloads.length ? ` with ${preloads.join(', ')}` : ''}${options.awsLatency ? ' and AWS latencies' : ''}`,
  );
  const stack = await checkout.spawnStack({
    dataDir,
    inMemory: true,
    timeoutMs: 120_000,
    env: {
      // The reconciler at AWS's cadence (once a minute), not the local 2 s: its background reads are not
      // part of an email's cost (32 Query calls a minute on AWS, whatever the volume).
      LOCAL_TASK_PERIOD_MS: '60000',
      // The product's settings as on AWS (the send context cache): reads per email as AWS would see them.
      ...AWS_SETTINGS_ENV,
      // The table's stream as that many shards (docs/local-cloud/streams.md); 1 is DynamoDB Local's own.
      ...(options.streamShards > 1 ? { LOCAL_STREAM_SHARDS: String(options.streamShards) } : {}),
      ...(preloads.length
        ? {
            NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...preloads.map((file) => `--require ${join(__dirname, '..', 'lib', file)}`)]
              .join(' ')
              .trim(),
            ...(options.cpuProf ? { CPU_PROFILE_DIR: dirs.profDir, CPU_PROFILE_CHUNK_MS: String(CPU_PROFILE_CHUNK_MS) } : {}),
            ...(options.observe ? { BENCH_SDK_DIR: dirs.sdkDir } : {}),
            ...(options.awsLatency ? { BENCH_AWS_LATENCY: '1' } : {}),
            ...(options.cost ? { BENCH_COST: '1' } : {}),
          }
        : {}),
    },
  });
  return { checkout, commit, stack, dirs };
}
