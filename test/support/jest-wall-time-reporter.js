/**
 * Prints the run's wall time as its last lines (from the start of the Jest process to its exit: the
 * shared stack's start in the global setup and its stop in the teardown included), and the slowest
 * files, so a change that makes the suite longer shows. Each file's start and end (seconds from the run's
 * start) go to .test-data/test-timeline.json: which files ran together when the machine was idle or busy.
 *
 * And where the run's CPU went (on Linux; the suite is CPU-bound on 2 cores, so CPU is what its wall time
 * is made of): each file's CPU in its worker, reaped children included (./file-cpu-setup.ts), plus its
 * share of the shared stack's (sampled every 2 s, each sample's CPU split evenly between the files using
 * the stack at that moment) and of the rest the main process started (the own stacks' DynamoDB Local).
 * The heaviest files are printed, every file's figures written to .test-data/test-cpu.json.
 *
 * And how busy the machine was (from /proc/stat, each sample): over the whole run, and for each file that
 * failed, with the processes that used the most CPU while it ran, so a timeout in CI says whether the
 * machine was starved and by what (.test-data/test-load.json keeps every sample's busy share).
 */
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { machineTicks, processTable, treeCpuMs } = require('./process-cpu.cjs');

const SAMPLE_MS = 2000;
/** The projects whose files use the shared stack (the global setup's). */
const SHARED_STACK_PROJECTS = new Set(['integration', 'browser']);

const format = (ms) => {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s` : `${seconds} s`;
};

class WallTimeReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.workers = globalConfig.maxWorkers;
    this.slowest = options.slowest ?? 8;
    this.running = new Map();
    this.shares = new Map();
    this.totals = { sharedStack: 0, background: 0, unshared: 0 };
    this.workerPids = new Set();
    /** path -> { wallMs, busyMs, byPid: Map<pid, ms> } while the file ran. */
    this.load = new Map();
    /** [seconds from the run's start, busy share] of every sample. */
    this.loadSamples = [];
    this.machine = { busyMs: 0, stealMs: 0, wallMs: 0 };
    this.commands = new Map();
  }

  onRunStart() {
    this.previous = undefined;
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  onTestFileStart(test) {
    this.running.set(test.path, test.context.config.displayName?.name ?? '');
    this.load.set(test.path, { wallMs: 0, busyMs: 0, byPid: new Map() });
  }

  onTestFileResult(test) {
    this.sample();
    this.running.delete(test.path);
  }

  /** The shared stack's CPU (and the main process's other children's) since the last sample, split between the files running. */
  sample() {
    const table = processTable();
    if (!table) return;
    this.sampleLoad(table);
    const stackPid = globalThis.__LOCAL_CLOUD__?.child?.pid;
    for (const [pid, { ppid }] of table) {
      if (ppid !== process.pid || this.workerPids.has(pid)) continue;
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('processChild')) this.workerPids.add(pid);
      } catch {
        // gone
      }
    }
    const sharedStack = stackPid ? treeCpuMs(table, stackPid) : 0;
    const excluded = new Set([...this.workerPids, ...(stackPid ? [stackPid] : [])]);
    // The main process's other descendants (its own CPU left out): the own stacks' DynamoDB Local.
    const background = treeCpuMs(table, process.pid, excluded) - (table.get(process.pid)?.ms ?? 0);
    const previous = this.previous;
    this.previous = { sharedStack, background };
    if (!previous) return;
    const users = [...this.running].filter(([, project]) => SHARED_STACK_PROJECTS.has(project)).map(([path]) => path);
    const add = (field, delta) => {
      if (delta <= 0) return;
      this.totals[field] += delta;
      if (users.length === 0) {
        this.totals.unshared += delta;
        return;
      }
      for (const path of users) {
        const share = this.shares.get(path) ?? { sharedStack: 0, background: 0 };
        share[field] += delta / users.length;
        this.shares.set(path, share);
      }
    };
    add('sharedStack', sharedStack - previous.sharedStack);
    add('background', background - previous.background);
  }

  /** The machine's busy share since the last sample, and each process's CPU then, charged to every file running. */
  sampleLoad(table) {
    const ticks = machineTicks();
    const now = Date.now();
    const previous = this.previousLoad;
    this.previousLoad = { ticks, table, at: now };
    if (!previous || !ticks || !previous.ticks) return;
    const total = ticks.total - previous.ticks.total;
    if (total <= 0) return;
    const busyShare = 1 - (ticks.idle - previous.ticks.idle) / total;
    const wallMs = now - previous.at;
    this.machine.wallMs += wallMs;
    this.machine.busyMs += busyShare * wallMs;
    this.machine.stealMs += ((ticks.steal - previous.ticks.steal) / total) * wallMs;
    this.loadSamples.push([Math.round(process.uptime() * 10) / 10, Math.round(busyShare * 100) / 100]);
    const deltas = [];
    for (const [pid, { ms }] of table) {
      const delta = ms - (previous.table.get(pid)?.ms ?? ms);
      if (delta > 0) deltas.push([pid, delta]);
    }
    for (const [pid, delta] of deltas) {
      if (delta >= 200 && !this.commands.has(pid)) {
        try {
          const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
          this.commands.set(pid, command.replace(/\S*node_modules\//g, '').slice(0, 90));
        } catch {
          // gone
        }
      }
    }
    for (const path of this.running.keys()) {
      const load = this.load.get(path);
      if (!load) continue;
      load.wallMs += wallMs;
      load.busyMs += busyShare * wallMs;
      for (const [pid, delta] of deltas) load.byPid.set(pid, (load.byPid.get(pid) ?? 0) + delta);
    }
  }

  /** For each failed file: how busy the machine was while it ran, and the processes that used the most CPU then. */
  loadReport(results) {
    const lines = [];
    for (const file of results.testResults) {
      if (file.numFailingTests === 0 && !file.testExecError) continue;
      const load = this.load.get(file.testFilePath);
      if (!load || load.wallMs === 0) continue;
      const top = [...load.byPid]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([pid, ms]) => `${this.commands.get(pid) ?? `pid ${pid}`} ${Math.round(ms / 1000)} s`)
        .join('; ');
      lines.push(
        `While ${relative(this.rootDir, file.testFilePath)} failed (${format(load.wallMs)} sampled): the machine was ` +
          `${Math.round((100 * load.busyMs) / load.wallMs)}% busy; most CPU then: ${top}`,
      );
    }
    try {
      writeFileSync(join(this.rootDir, '.test-data', 'test-load.json'), `${JSON.stringify(this.loadSamples)}\n`);
    } catch {
      // a read-only checkout
    }
    const share = (ms) => Math.round((100 * ms) / this.machine.wallMs);
    // Steal is counted busy, yet it is the host's: runs to compare should have about the same.
    const machine =
      this.machine.wallMs > 0
        ? `Machine: ${share(this.machine.busyMs)}% busy over the run (${share(this.machine.stealMs)}% of it taken by the host: steal)\n`
        : '';
    return `${lines.map((line) => `${line}\n`).join('')}${machine}`;
  }

  /** Each file's CPU (its worker's, ./file-cpu-setup.ts, and its shares), and what the workers spent between files. */
  fileCpu() {
    const dir = process.env.JEST_FILE_CPU_DIR;
    const { worker, betweenFilesMs } = dir && existsSync(dir) ? workerRecords(dir) : { worker: new Map(), betweenFilesMs: 0 };
    if (dir) rmSync(dir, { recursive: true, force: true });
    const files = new Set([...worker.keys(), ...this.shares.keys()]);
    const rows = [...files]
      .map((file) => {
        const share = this.shares.get(file) ?? { sharedStack: 0, background: 0 };
        const own = worker.get(file)?.ms ?? 0;
        const { gcMs = 0, heapMb = 0 } = worker.get(file) ?? {};
        return {
          path: relative(this.rootDir, file),
          cpu_s: Math.round((own + share.sharedStack + share.background) / 100) / 10,
          worker_s: Math.round(own / 100) / 10,
          shared_stack_s: Math.round(share.sharedStack / 100) / 10,
          background_s: Math.round(share.background / 100) / 10,
          worker_gc_s: Math.round(gcMs / 100) / 10,
          worker_heap_mb: heapMb,
        };
      })
      .sort((a, b) => b.cpu_s - a.cpu_s);
    return { files: rows, betweenFilesMs };
  }

  cpuReport() {
    clearInterval(this.timer);
    this.sample();
    const { files, betweenFilesMs } = this.fileCpu();
    if (files.length === 0) return '';
    const sum = (field) => Math.round(files.reduce((total, file) => total + file[field], 0));
    const { user, system } = process.cpuUsage();
    try {
      writeFileSync(join(this.rootDir, '.test-data', 'test-cpu.json'), `${JSON.stringify(files, null, 1)}\n`);
    } catch {
      // a read-only checkout
    }
    const heaviest = files
      .slice(0, this.slowest)
      .map(
        (file) =>
          `${file.path} ${file.cpu_s} s${globalThis.__LOCAL_CLOUD__ ? ` (worker ${file.worker_s}, shared stack ${file.shared_stack_s})` : ''}`,
      )
      .join(', ');
    // A run without the shared stack (the unit and infra tiers) has no stack figures to show.
    const stacks = globalThis.__LOCAL_CLOUD__
      ? `, ${Math.round(this.totals.sharedStack / 1000)} s the shared stack, ${Math.round(this.totals.background / 1000)} s the own stacks' ` +
        `DynamoDB Local (${Math.round(this.totals.unshared / 1000)} s of these two with no file using them)`
      : '';
    const gcHeaviest = [...files]
      .sort((a, b) => b.worker_gc_s - a.worker_gc_s)
      .slice(0, 3)
      .map((file) => `${file.path} ${file.worker_gc_s} s (heap ${file.worker_heap_mb} MB at its start)`)
      .join(', ');
    return (
      `CPU: ${sum('worker_s')} s in the test workers (their children included; ${sum('worker_gc_s')} s of it their garbage collection: most ${gcHeaviest}; ` +
      `besides ${Math.round(betweenFilesMs / 1000)} s between their files, Jest's own work for each)${stacks}, ` +
      `${Math.round((user + system) / 1e6)} s Jest's main process\nHeaviest files by CPU: ${heaviest}\n`
    );
  }

  onRunComplete(_contexts, results) {
    const started = Date.now() - process.uptime() * 1000;
    const seconds = (ms) => Math.round((ms - started) / 100) / 10;
    const timeline = results.testResults
      .filter((file) => file.perfStats && file.perfStats.end > 0)
      .map((file) => ({
        path: relative(this.rootDir, file.testFilePath),
        start_s: seconds(file.perfStats.start),
        end_s: seconds(file.perfStats.end),
        ms: file.perfStats.end - file.perfStats.start,
      }))
      .sort((a, b) => a.start_s - b.start_s);
    const files = [...timeline].sort((a, b) => b.ms - a.ms);
    try {
      mkdirSync(join(this.rootDir, '.test-data'), { recursive: true });
      writeFileSync(
        join(this.rootDir, '.test-data', 'test-timeline.json'),
        `${JSON.stringify(
          timeline.map(({ ms, ...file }) => file),
          null,
          1,
        )}\n`,
      );
    } catch {
      // a read-only checkout: the timeline is a convenience
    }
    const slowest =
      files.length > 1
        ? `Slowest files: ${files
            .slice(0, this.slowest)
            .map((file) => `${file.path} ${format(file.ms)}`)
            .join(', ')}\n`
        : '';
    const cpu = this.cpuReport();
    const load = this.loadReport(results);
    const counts = `${results.numTotalTestSuites} files (${results.numTotalTests} tests), at most ${this.workers} at once`;
    // Jest's summary is written after every reporter's onRunComplete: print at exit, after it (and after
    // the global teardown). Writes to a pipe, a file or a terminal are synchronous on Linux.
    process.once('exit', () =>
      process.stderr.write(`\n${slowest}${cpu}${load}Wall time: ${format(process.uptime() * 1000)} for ${counts}\n`),
    );
  }
}

/**
 * The workers' records (./file-cpu-setup.ts: one JSON line per file, a file per worker process, in the order it ran
 * them): each file's CPU, and the CPU the workers spent from one file's end to the next one's start.
 */
function workerRecords(dir) {
  const worker = new Map();
  let betweenFilesMs = 0;
  for (const name of readdirSync(dir)) {
    let previousEnd = null;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      const { file, ms, startMs, endMs, gcMs = 0, heapMb = 0 } = JSON.parse(line);
      worker.set(file, { ms, gcMs, heapMb });
      if (previousEnd !== null && startMs >= previousEnd) betweenFilesMs += startMs - previousEnd;
      previousEnd = endMs ?? null;
    }
  }
  return { worker, betweenFilesMs };
}

module.exports = WallTimeReporter;
module.exports.workerRecords = workerRecords;
