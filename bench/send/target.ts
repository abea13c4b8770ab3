/** One checkout measured: its stack started, its phases run, the stack stopped whatever happened. */
import type { BenchSdk } from './bench-sdk';
import type { SendBenchOptions } from './options';
import type { Target, TargetResult } from './results';
import { runPhases } from './run-phases';
import { startStack } from './start-stack';

export async function runTarget(
  target: Target,
  scratch: string,
  options: SendBenchOptions,
  benchSdk: BenchSdk | undefined,
): Promise<TargetResult> {
  const started = await startStack(target, scratch, options);
  try {
    return await runPhases({ target, ...started, options, benchSdk });
  } finally {
    await started.stack.stop('SIGINT');
  }
}
