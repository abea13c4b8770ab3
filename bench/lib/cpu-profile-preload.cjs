/**
 * Preloaded with NODE_OPTIONS="--require <this file>" (Node 20 refuses --cpu-prof in NODE_OPTIONS): runs
 * the V8 sampling profiler of EVERY thread of every Node process of the stack through the in-thread
 * inspector (NODE_OPTIONS preloads run in every thread: main, worker_threads, and tsx's module-loader
 * hooks thread, which is profiled too and labelled `loader-hooks`).
 *
 * A worker thread stopped with worker.terminate() never emits 'exit', so the profile is written in
 * chunks: every CPU_PROFILE_CHUNK_MS (default 3000) the profiler is stopped, the chunk written to
 * <CPU_PROFILE_DIR>/<pid>-<threadId>-<role>-<seq>.cpuprofile and the profiler started again (a gap of
 * well under a millisecond); the main thread also writes its last chunk at exit. Timestamps are
 * CLOCK_MONOTONIC microseconds in every thread, so the benchmark selects a phase's samples by time.
 * <pid>-<threadId>.meta.json says which OS thread (tid) it is, for per-thread CPU from /proc.
 */
'use strict';
const inspector = require('node:inspector');
const wt = require('node:worker_threads');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const GUARD = Symbol.for('mailservice.bench.cpu-profile-preload');
const dir = process.env.CPU_PROFILE_DIR;

if (dir && !globalThis[GUARD]) {
  require('./preload-in-workers.cjs').inheritPreload(__filename);
  globalThis[GUARD] = true;
  try {
    const role = wt.isMainThread ? 'main' : wt.parentPort === null ? 'loader-hooks' : 'worker';
    const prefix = `${process.pid}-${wt.threadId}`;
    let tid = 0;
    try {
      tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]) || 0;
    } catch {
      // not Linux
    }
    mkdirSync(dir, { recursive: true });
    // A worker's process.argv is completed after the preloads run: the meta is rewritten with each chunk.
    const writeMeta = () =>
      writeFileSync(
        join(dir, `${prefix}.meta.json`),
        JSON.stringify({ pid: process.pid, threadId: wt.threadId, tid, role, argv1: process.argv[1] || '' }),
      );
    writeMeta();
    const session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: Number(process.env.CPU_PROFILE_INTERVAL_US || 1000) });
    session.post('Profiler.start');
    let seq = 0;
    let stopped = false;
    const writeChunk = (restart) => {
      if (stopped) return;
      // The in-thread session answers synchronously, so this also works in 'exit'.
      session.post('Profiler.stop', (error, result) => {
        if (!error && result) {
          try {
            writeFileSync(join(dir, `${prefix}-${role}-${String(seq++).padStart(4, '0')}.cpuprofile`), JSON.stringify(result.profile));
            writeMeta();
          } catch {
            // the bench may have removed the folder
          }
        }
      });
      if (restart) session.post('Profiler.start');
      else stopped = true;
    };
    setInterval(() => writeChunk(true), Number(process.env.CPU_PROFILE_CHUNK_MS || 3000)).unref();
    process.on('exit', () => writeChunk(false));
  } catch {
    // profiling must never break the stack
  }
}
