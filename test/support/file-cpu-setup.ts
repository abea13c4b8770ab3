/**
 * Each test file's CPU in its Jest worker (setupFilesAfterEnv of every project, jest.config.js): the
 * worker's own CPU and its reaped children's (CLIs, stacks of a file's own, DynamoDB Local of a unit
 * test) from the file's start to the next file's start in the same worker (so a stack stopped in the
 * file's last hook counts), or to its own `afterAll` for a worker's last file. Written as JSON lines to
 * JEST_FILE_CPU_DIR, which the run's reporter reads (./jest-wall-time-reporter.js: the heaviest files).
 * With it, the worker's garbage collection time over the same span (V8's `gc` performance entries), and
 * its heap at the file's start: a worker's heap that grows from file to file makes every collection dearer.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';

const { ownCpuMs } = require('./process-cpu.cjs') as { ownCpuMs: () => number | null };

interface OpenFile {
  file: string;
  startMs: number;
  startGcMs: number;
  heapMb: number;
}
const slot = process as unknown as { __testFileCpu?: OpenFile; __testGcMs?: { total: number } };
const dir = process.env.JEST_FILE_CPU_DIR;

/** The worker's garbage collection so far, in ms (one observer per worker process). */
function gcMs(): number {
  if (!slot.__testGcMs) {
    const gc = { total: 0 };
    slot.__testGcMs = gc;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gc.total += entry.duration;
    }).observe({ entryTypes: ['gc'] });
  }
  return slot.__testGcMs.total;
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
  const startGcMs = gcMs();
  if (previous) record(previous.file, now - previous.startMs, true, { gcMs: startGcMs - previous.startGcMs, heapMb: previous.heapMb });
  const file = expect.getState().testPath ?? 'unknown';
  const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
  slot.__testFileCpu = { file, startMs: now, startGcMs, heapMb };
  afterAll(() => {
    const end = ownCpuMs();
    if (end !== null) record(file, end - now, false, { gcMs: gcMs() - startGcMs, heapMb });
  });
}
