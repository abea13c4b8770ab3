/**
 * Each test file's CPU in its Jest worker (setupFilesAfterEnv of every project, jest.config.js): the
 * worker's own CPU and its reaped children's (CLIs, stacks of a file's own, DynamoDB Local of a unit
 * test) from this setup to its `afterAll`, which runs after the file's `describe` blocks (and their hooks)
 * and before the file's own top-level `afterAll` hooks. (Each file has its own copy of `process`, so nothing
 * set here reaches the next file.) Written as JSON lines to
 * JEST_FILE_CPU_DIR, which the run's reporter reads (./jest-wall-time-reporter.js: the heaviest files).
 * With it, the worker's garbage collection time while the file runs (V8's `gc` performance entries), and
 * its heap at the file's start: a worker's heap that grows from file to file makes every collection dearer.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';

const { ownCpuMs } = require('./process-cpu.cjs') as { ownCpuMs: () => number | null };

const dir = process.env.JEST_FILE_CPU_DIR;

/**
 * The worker's garbage collection from now on, in ms: an observer of this file's, disconnected when the file
 * ends (perf_hooks is the worker's, shared by every file: a callback left registered would keep this file's
 * context, and every module it loaded, alive for the rest of the worker).
 */
function watchGc(): { ms: () => number; stop: () => void } {
  let total = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) total += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  return { ms: () => total, stop: () => observer.disconnect() };
}

/**
 * One line per file, in the order the worker ran them: its CPU (`ms`), and the worker's CPU figure at the file's
 * start and end (`startMs`, `endMs`), so the reporter can tell what the worker spent between two files (Jest's
 * own work per file: the test environment, the framework, the results).
 */
function record(file: string, cpu: { ms: number; startMs: number; endMs: number }, gc: { gcMs: number; heapMb: number }): void {
  try {
    appendFileSync(join(dir!, `${process.pid}.jsonl`), `${JSON.stringify({ file, ...cpu, ...gc })}\n`);
  } catch {
    // the report is a convenience: a run without it loses nothing
  }
}

const now = ownCpuMs();
if (dir && now !== null) {
  const file = expect.getState().testPath ?? 'unknown';
  const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
  const gc = watchGc();
  afterAll(() => {
    gc.stop();
    const end = ownCpuMs();
    if (end !== null) record(file, { ms: end - now, startMs: now, endMs: end }, { gcMs: gc.ms(), heapMb });
  });
}
