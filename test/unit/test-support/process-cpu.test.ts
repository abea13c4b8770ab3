/**
 * The test run's CPU report (test/support/process-cpu.cjs): a process tree's CPU from /proc, its reaped
 * children's included, and the subtrees left out (the test workers, the shared stack).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryDir } from '../../support/temporary-dirs';

const { cpuTicksOf, machineTicks, ownCpuMs, processCpu, processTable, treeCpuMs } = require('../../support/process-cpu.cjs') as {
  cpuTicksOf: (line: string) => { idle: number; steal: number; total: number };
  machineTicks: () => { idle: number; steal: number; total: number } | null;
  ownCpuMs: () => number | null;
  processCpu: (pid: number | 'self') => { ppid: number; ms: number } | null;
  processTable: () => Map<number, { ppid: number; ms: number }> | null;
  treeCpuMs: (table: Map<number, { ppid: number; ms: number }>, root: number, excluded?: Set<number>) => number;
};

const onLinux = process.platform === 'linux';

describe('treeCpuMs', () => {
  // 1 -> 2 -> 4, 1 -> 3 -> 5
  const table = new Map([
    [1, { ppid: 0, ms: 100 }],
    [2, { ppid: 1, ms: 20 }],
    [3, { ppid: 1, ms: 30 }],
    [4, { ppid: 2, ms: 4 }],
    [5, { ppid: 3, ms: 5 }],
  ]);

  it('sums a process and every descendant', () => {
    expect(treeCpuMs(table, 1)).toBe(159);
    expect(treeCpuMs(table, 3)).toBe(35);
  });

  it('leaves out the subtrees it is told to', () => {
    expect(treeCpuMs(table, 1, new Set([3]))).toBe(124);
    expect(treeCpuMs(table, 1, new Set([1]))).toBe(0);
  });

  it('counts nothing for a process that is gone', () => {
    expect(treeCpuMs(table, 42)).toBe(0);
  });
});

if (!onLinux) {
  it('answers null off Linux (no /proc)', () => {
    expect(ownCpuMs()).toBeNull();
    expect(processTable()).toBeNull();
  });
}

(onLinux ? describe : () => undefined)('on Linux, from /proc', () => {
  it("reads this process's CPU and parent", () => {
    const self = processCpu(process.pid);
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.ms).toBeGreaterThan(0);
  });

  it("adds a child's CPU to its parent's once the child is reaped", () => {
    const before = ownCpuMs()!;
    // A child that burns 300 ms of CPU by its own count (however busy the machine), waited for.
    const child = spawnSync(process.execPath, [
      '-e',
      'const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < 300); console.log(Math.round(cpu()));',
    ]);
    const childMs = Number(child.stdout.toString());
    expect(childMs).toBeGreaterThanOrEqual(300);
    // Clock ticks of 10 ms: the parent's figure may round each of the child's two times down.
    expect(ownCpuMs()! - before).toBeGreaterThanOrEqual(childMs - 20);
  });

  it('lists the live processes with their parents', () => {
    const table = processTable()!;
    expect(table.get(process.pid)?.ppid).toBe(process.ppid);
    expect(treeCpuMs(table, process.ppid)).toBeGreaterThanOrEqual(table.get(process.pid)!.ms);
  });

  it('answers null for a process that does not exist', () => {
    expect(processCpu(2 ** 22 + 1)).toBeNull();
  });

  it("counts the machine's busy ticks: 300 ms of this process's CPU are at least 300 ms of busy time", () => {
    const before = machineTicks()!;
    const cpu = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    const start = cpu();
    while (cpu() - start < 300);
    const after = machineTicks()!;
    const busyMs = (after.total - before.total - (after.idle - before.idle)) * 10;
    // Clock ticks of 10 ms, counted per CPU: a tick or two may fall either side.
    expect(busyMs).toBeGreaterThanOrEqual(280);
    expect(after.total).toBeGreaterThan(before.total);
  });

  it("reads the host's steal from /proc/stat's eighth field, and counts the guest fields (already in user) once", () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    expect(cpuTicksOf('cpu  100 5 20 300 7 0 3 11 40 2')).toEqual({ idle: 307, steal: 11, total: 446 });
    // An older kernel's shorter line: no steal field.
    expect(cpuTicksOf('cpu  100 5 20 300 7 0 3')).toEqual({ idle: 307, steal: 0, total: 435 });
    const ticks = machineTicks()!;
    expect(ticks.total).toBeGreaterThanOrEqual(ticks.idle + ticks.steal);
  });
});

(onLinux ? describe : () => undefined)("the run's report of the machine's load", () => {
  const Reporter = require('../../support/jest-wall-time-reporter.js');

  it('says, for a file that failed, how busy the machine was and which processes used the most CPU while it ran', () => {
    const reporter = new Reporter({ rootDir: process.cwd(), maxWorkers: 1 });
    const failed = `${process.cwd()}/test/x-failed.test.ts`;
    const passed = `${process.cwd()}/test/y-passed.test.ts`;
    reporter.onTestFileStart({ path: failed, context: { config: { displayName: { name: 'unit' } } } });
    reporter.onTestFileStart({ path: passed, context: { config: { displayName: { name: 'unit' } } } });
    reporter.sample();
    const cpu = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    const start = cpu();
    while (cpu() - start < 400);
    reporter.sample();
    const report: string = reporter.loadReport({
      testResults: [
        { testFilePath: failed, numFailingTests: 1 },
        { testFilePath: passed, numFailingTests: 0 },
      ],
    });
    expect(report).toMatch(/^While test\/x-failed\.test\.ts failed \(\d+ s sampled\): the machine was \d+% busy; most CPU then: .+ \d+ s/m);
    // This worker burnt the 400 ms: it is named among them.
    expect(report).toContain(
      require('node:fs')
        .readFileSync('/proc/self/cmdline', 'utf8')
        .split('\0')[0]
        .replace(/\S*node_modules\//g, ''),
    );
    expect(report).not.toContain('y-passed');
    expect(report).toMatch(/^Machine: \d+% busy over the run \(\d+% of it taken by the host: steal\)$/m);
  });
});

describe("the run's report of what the workers spent between their files", () => {
  const { workerRecords } = require('../../support/jest-wall-time-reporter.js');

  it("sums, within each worker's records, the CPU from one file's end to the next one's start, never across workers", () => {
    const dir = temporaryDir('jest-file-cpu-test-');
    const line = (file: string, startMs: number, endMs: number) =>
      JSON.stringify({ file, ms: endMs - startMs, startMs, endMs, gcMs: 1, heapMb: 10 });
    // One worker: 30 ms between its two files; another (its own process's figures): 50 ms. Read across the two,
    // b's end to c's start would add 100 more.
    writeFileSync(join(dir, '101.jsonl'), `${line('a.test.ts', 0, 100)}\n${line('b.test.ts', 130, 200)}\n`);
    writeFileSync(join(dir, '102.jsonl'), `${line('c.test.ts', 300, 400)}\n${line('d.test.ts', 450, 600)}\n`);
    const { worker, betweenFilesMs } = workerRecords(dir);
    expect(betweenFilesMs).toBe(80);
    expect(worker.get('b.test.ts')).toEqual({ ms: 70, gcMs: 1, heapMb: 10 });
    expect([...worker.keys()].sort()).toEqual(['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts']);
  });
});
