/**
 * Each test file's CPU in its Jest worker (setupFilesAfterEnv of every project, jest.config.js): the
 * worker's own CPU and its reaped children's (CLIs, stacks of a file's own, DynamoDB Local of a unit
 * test) from the file's start to the next file's start in the same worker (so a stack stopped in the
 * file's last hook counts), or to its own `afterAll` for a worker's last file. Written as JSON lines to
 * JEST_FILE_CPU_DIR, which the run's reporter reads (./jest-wall-time-reporter.js: the heaviest files).
 * With it, the worker's garbage collection time while the file runs (V8's `gc` performance entries), and
 * its heap at the file's start: a worker's heap that grows from file to file makes every collection dearer.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';

const { ownCpuMs } = require('./process-cpu.cjs') as { ownCpuMs: () => number | null };

interface OpenFile {
  file: string;
  startMs: number;
  gcMs: () => number;
  heapMb: number;
}
const slot = process as unknown as { __testFileCpu?: OpenFile };
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

function record(file: string, ms: number, final: boolean, gc: { gcMs: number; heapMb: number }): void {
  try {
    appendFileSync(join(dir!, `${process.pid}.jsonl`), `${JSON.stringify({ file, ms, final, ...gc })}\n`);
  } catch {
    // the report is a convenience: a run without it loses nothing
  }
}

const now = ownCpuMs();
if (dir && now !== null) {
  const previous = slot.__testFileCpu;
  if (previous) record(previous.file, now - previous.startMs, true, { gcMs: previous.gcMs(), heapMb: previous.heapMb });
  const file = expect.getState().testPath ?? 'unknown';
  const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
  const gc = watchGc();
  slot.__testFileCpu = { file, startMs: now, gcMs: gc.ms, heapMb };
  afterAll(() => {
    gc.stop();
    const end = ownCpuMs();
    if (end !== null) record(file, end - now, false, { gcMs: gc.ms(), heapMb });
  });
}
