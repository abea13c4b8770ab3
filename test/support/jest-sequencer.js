/**
 * The order of a run's files: planned by ./duty-plan.js so the cores stay busy (a file that mostly waits starts
 * beside busy ones, not beside other waiting ones), the long files early so the workers finish together.
 * A file's wall time is its last run's (Jest's own cache), else the committed estimate in test-durations.json (a
 * fresh clone has no cache), else its size in bytes / 2,000 (about a second per 2 KB of test code). Its share of
 * a core while it runs is its committed CPU seconds over its committed wall seconds, else DEFAULT_DUTY (most small
 * files are unit tests that compute).
 */
const Sequencer = require('@jest/test-sequencer').default;
const { availableParallelism } = require('node:os');
const { relative } = require('node:path');
const { planByDuty } = require('./duty-plan');
const estimates = require('./test-durations.json');

const DEFAULT_DUTY = 0.8;

class PlannedByDuty extends Sequencer {
  constructor(options) {
    super(options);
    this.slots = options?.globalConfig?.maxWorkers ?? 1;
  }

  sort(tests) {
    const keyed = tests.map((test) => {
      const path = relative(test.context.config.rootDir, test.path);
      const cached = this.time(test);
      const estimate = estimates.seconds[path];
      const seconds = cached != null ? cached / 1000 : (estimate ?? (test.context.hasteFS.getSize(test.path) ?? 0) / 2000);
      const cpu = estimates.cpu_seconds[path];
      const duty = estimate && cpu != null ? Math.min(1, cpu / estimate) : DEFAULT_DUTY;
      // Jest reads test.duration (ms) for its own estimates.
      test.duration ??= Math.round(seconds * 1000);
      return { key: test.path, seconds, cpuSeconds: seconds * duty, test };
    });
    const byKey = new Map(keyed.map((file) => [file.key, file.test]));
    return planByDuty(keyed, { slots: this.slots, cores: availableParallelism() }).map((key) => byKey.get(key));
  }
}

module.exports = PlannedByDuty;
