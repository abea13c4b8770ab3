/**
 * Each test file's CPU in its Jest worker (setupFilesAfterEnv of every project, jest.config.js): the
 * worker's own CPU and its reaped children's (CLIs, stacks of a file's own, DynamoDB Local of a unit
 * test) from the file's start to the next file's start in the same worker (so a stack stopped in the
 * file's last hook counts), or to its own `afterAll` for a worker's last file. Written as JSON lines to
 * JEST_FILE_CPU_DIR, which the run's reporter reads (./jest-wall-time-reporter.js: the heaviest files).
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const { ownCpuMs } = require('./process-cpu.cjs') as { ownCpuMs: () => number | null };

interface OpenFile {
  file: string;
  startMs: number;
}
const slot = process as unknown as { __testFileCpu?: OpenFile };
const dir = process.env.JEST_FILE_CPU_DIR;

function record(file: string, ms: number, final: boolean): void {
  try {
    appendFileSync(join(dir!, `${process.pid}.jsonl`), `${JSON.stringify({ file, ms, final })}\n`);
  } catch {
    // the report is a convenience: a run without it loses nothing
  }
}

const now = ownCpuMs();
if (dir && now !== null) {
  const previous = slot.__testFileCpu;
  if (previous) record(previous.file, now - previous.startMs, true);
  const file = expect.getState().testPath ?? 'unknown';
  slot.__testFileCpu = { file, startMs: now };
  afterAll(() => {
    const end = ownCpuMs();
    if (end !== null) record(file, end - now, false);
  });
}
