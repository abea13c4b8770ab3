/**
 * Writes test/support/test-durations.json from the last whole run's figures (the reporter's
 * .test-data/test-timeline.json and test-cpu.json): each file's wall seconds and CPU seconds, for the files of
 * 3 s or more. test/support/jest-sequencer.js plans the order of a run with them when Jest has no timings of its
 * own (a fresh clone). Run `node test/support/refresh-test-durations.cjs "<what run>"` after a whole `npm test`
 * when the files changed a lot; the argument says which run the figures are from.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const MINIMUM_SECONDS = 3;
const read = (name) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, '.test-data', name), 'utf8'));
  } catch (error) {
    console.error(`cannot read .test-data/${name} (${error.code ?? error.message}): run the whole suite (npm test) first`);
    process.exit(2);
  }
};

const run = process.argv[2];
if (!run) {
  console.error('usage: node test/support/refresh-test-durations.cjs "<the run the figures are from: date, commit, wall time>"');
  process.exit(2);
}
const timeline = read('test-timeline.json');
const cpu = new Map(read('test-cpu.json').map((file) => [file.path, file.cpu_s]));
const files = timeline
  .map((file) => ({ path: file.path, seconds: Math.round((file.end_s - file.start_s) * 10) / 10 }))
  .filter((file) => file.seconds >= MINIMUM_SECONDS)
  .sort((a, b) => b.seconds - a.seconds || (a.path < b.path ? -1 : 1));
const estimates = {
  about:
    `Wall and CPU seconds of each test file of ${MINIMUM_SECONDS} s or more in a measured whole run (files in parallel, ` +
    `3 at a time, on a 2-core machine; ${run}), from the reporter's .test-data/test-timeline.json and test-cpu.json. ` +
    'test/support/jest-sequencer.js plans the order with them when Jest has no timings of its own (a fresh clone). ' +
    'Written by test/support/refresh-test-durations.cjs: refresh after a whole run when files change a lot.',
  seconds: Object.fromEntries(files.map((file) => [file.path, file.seconds])),
  cpu_seconds: Object.fromEntries(files.map((file) => [file.path, Math.round((cpu.get(file.path) ?? 0) * 10) / 10])),
};
writeFileSync(join(__dirname, 'test-durations.json'), `${JSON.stringify(estimates, null, 2)}\n`);
console.log(`${files.length} files written to test/support/test-durations.json`);
