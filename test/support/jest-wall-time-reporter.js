/**
 * Prints the run's wall time as its last lines (from the start of the Jest process to its exit: the
 * shared stack's start in the global setup and its stop in the teardown included), and the slowest
 * files, so a change that makes the suite longer shows.
 */
const { relative } = require('node:path');

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
    const files = results.testResults
      .filter((file) => file.perfStats && file.perfStats.end > 0)
      .map((file) => ({ path: relative(this.rootDir, file.testFilePath), ms: file.perfStats.end - file.perfStats.start }))
      .sort((a, b) => b.ms - a.ms);
    const slowest = files.length > 1 ? `Slowest files: ${files.slice(0, this.slowest).map((file) => `${file.path} ${format(file.ms)}`).join(', ')}\n` : '';
    const counts = `${results.numTotalTestSuites} files (${results.numTotalTests} tests), at most ${this.workers} at once`;
    // Jest's summary is written after every reporter's onRunComplete: print at exit, after it (and after
    // the global teardown). Writes to a pipe, a file or a terminal are synchronous on Linux.
    process.once('exit', () => process.stderr.write(`\n${slowest}Wall time: ${format(process.uptime() * 1000)} for ${counts}\n`));
  }
}

module.exports = WallTimeReporter;
