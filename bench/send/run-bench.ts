/**
 * The whole bench: a scratch folder, the SDK preload in this process when observing, the current
 * checkout measured, then the baseline's worktree (a failed baseline is reported as missing, the current
 * figures stand on their own), and the report printed. The scratch folder and the worktree are removed at
 * the end, Ctrl-C included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addProjectRoot } from '../lib/cpu-profile';
import { ROOT } from '../lib/bench-stack';
import { loadBenchSdk, type BenchSdk } from './bench-sdk';
import { log } from './log';
import type { SendBenchOptions } from './options';
import { report } from './report/report';
import type { TargetResult } from './results';
import { runTarget } from './target';
import { createWorktree, type Worktree } from './worktree';

export async function runBench(options: SendBenchOptions): Promise<void> {
  const loadBefore = loadavg();
  const started = Date.now();
  const scratch = mkdtempSync(join(tmpdir(), 'mailservice-bench-send-'));
  const benchSdk = options.observe ? loadBenchSdk(scratch, options.awsLatency) : undefined;
  let worktree: Worktree | undefined;
  const cleanup = () => {
    worktree?.remove();
    worktree = undefined;
    rmSync(scratch, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    const results: TargetResult[] = [];
    results.push(await runTarget({ label: 'current', root: ROOT, withFloors: true }, scratch, options, benchSdk));
    if (options.baseline) {
      try {
        worktree = createWorktree(ROOT, options.baseline);
        results.push(await runBaseline(worktree, scratch, options, benchSdk));
      } catch (error) {
        // The current figures stand on their own: report them, and say why the baseline is missing.
        log(`baseline ${options.baseline} failed: ${(error as Error).stack ?? String(error)}`);
        console.log(`(baseline ${options.baseline} failed and is not reported: ${(error as Error).message.split('\n')[0]})`);
      }
    }
    console.log(report(results, options, { loadBefore, loadAfter: loadavg(), seconds: (Date.now() - started) / 1000 }));
  } finally {
    cleanup();
  }
}

/** The baseline's API phases on its worktree (its own stack; the preloads of this checkout; no floors). */
function runBaseline(
  worktree: Worktree,
  scratch: string,
  options: SendBenchOptions,
  benchSdk: BenchSdk | undefined,
): Promise<TargetResult> {
  addProjectRoot(worktree.dir);
  return runTarget({ label: `baseline ${worktree.sha.slice(0, 7)}`, root: worktree.dir, withFloors: false }, scratch, options, benchSdk);
}
