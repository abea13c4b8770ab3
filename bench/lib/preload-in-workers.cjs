/**
 * Makes sure a preload also runs in worker threads created with an explicit `execArgv`. Node applies
 * NODE_OPTIONS preloads (`--require`) to every thread it starts, but a Worker given its own `execArgv`
 * gets its options from that list: this wraps `worker_threads.Worker` so such a list gets
 * `--require <preload>` for each preload that asked. (Each preload guards itself against running twice
 * in one thread.)
 */
'use strict';
const wt = require('node:worker_threads');

const KEY = Symbol.for('mailservice.bench.preloads-in-workers');

function inheritPreload(file) {
  let state = globalThis[KEY];
  if (!state) {
    state = globalThis[KEY] = { files: new Set() };
    try {
      const Original = wt.Worker;
      const withPreloads = (options) => {
        if (!options || !Array.isArray(options.execArgv)) return options;
        const execArgv = [...options.execArgv];
        for (const preload of state.files) if (!execArgv.includes(preload)) execArgv.push('--require', preload);
        return { ...options, execArgv };
      };
      class Worker extends Original {
        constructor(filename, options) {
          super(filename, withPreloads(options));
        }
      }
      wt.Worker = Worker;
    } catch {
      // leave worker_threads alone
    }
  }
  state.files.add(file);
}

module.exports = { inheritPreload };
