/**
 * Prints the run's wall time as its last lines (from the start of the Jest process to its exit: the
 * shared stack's start in the global setup and its stop in the teardown included), and the slowest
 * files, so a change that makes the suite longer shows. Each file's start and end (seconds from the run's
 * start) go to .test-data/test-timeline.json: which files ran together when the machine was idle or busy.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const format = (ms) => {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s` : `${seconds} s`;
};

class WallTimeReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.workers = globalConfig.maxWorkers;
    this.slowest = options.slowest ?? 8;
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
    const counts = `${results.numTotalTestSuites} files (${results.numTotalTests} tests), at most ${this.workers} at once`;
    // Jest's summary is written after every reporter's onRunComplete: print at exit, after it (and after
    // the global teardown). Writes to a pipe, a file or a terminal are synchronous on Linux.
    process.once('exit', () => process.stderr.write(`\n${slowest}Wall time: ${format(process.uptime() * 1000)} for ${counts}\n`));
  }
}

module.exports = WallTimeReporter;
