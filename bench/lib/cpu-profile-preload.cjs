/**
 * Preloaded with NODE_OPTIONS="--require <this file>" (Node 20 refuses --cpu-prof in NODE_OPTIONS): starts
 * the V8 sampling profiler through the inspector and writes <CPU_PROFILE_DIR>/<pid>.cpuprofile when the
 * process exits. The in-thread inspector session answers synchronously, so this works in 'exit'.
 */
'use strict';
const inspector = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.CPU_PROFILE_DIR;
// Main thread only: loader-hook threads (tsx registers ESM hooks on a worker) share the pid and run preloads too.
if (dir && require('node:worker_threads').isMainThread) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.CPU_PROFILE_INTERVAL_US || 1000) });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
