/**
 * Longest files first, so the workers finish together instead of one long file starting last. A file's
 * time is its last run's (Jest's own cache), else the committed estimate in test-durations.json (a
 * fresh clone has no cache), else its size in bytes / 2,000 (about a second per 2 KB of test code).
 */
const Sequencer = require('@jest/test-sequencer').default;
const { relative } = require('node:path');
const estimates = require('./test-durations.json');

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached / 1000;
      const estimate = estimates.seconds[relative(test.context.config.rootDir, test.path)];
      if (estimate != null) return estimate;
      return (test.context.hasteFS.getSize(test.path) ?? 0) / 2000;
    };
    const keyed = tests.map((test) => ({ test, seconds: seconds(test) }));
    keyed.sort((a, b) => b.seconds - a.seconds || (a.test.path < b.test.path ? -1 : 1));
    return keyed.map(({ test, seconds: s }) => {
      // Jest reads test.duration (ms) for its own estimates.
      test.duration ??= Math.round(s * 1000);
      return test;
    });
  }
}

module.exports = LongestFirst;
