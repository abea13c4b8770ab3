/**
 * `npm start`'s program: the local cloud (./start.ts) run from its bundles (./bundles.cjs), built on first
 * use and again when a source changes, in this process (npm's signals reach the stack: ./start.ts). Loading
 * them instead of compiling some 900 files through tsx takes about 3 s of CPU less a start
 * (docs/local-cloud/bundles.md). `node --import tsx localstack/start.ts` still runs it from the sources.
 * `npm start` runs it with `--max-semi-space-size=4` (package.json): V8's young generation kept small in both the
 * main and the workers thread's heaps, about 46 MB less idle (docs/benchmarks.md, "Local cloud walking skeleton");
 * the test suite's stacks run with 32 instead (jest.config.js), fewer collections for their far heavier load.
 */
'use strict';
const { localCloudBundles } = require('./bundles.cjs');

localCloudBundles().then(
  (files) => {
    // Read by ./cloud/program-entries.ts: the thread and the relay task start from their bundles.
    globalThis[Symbol.for('mailservice.localCloudBundles')] = files;
    require(files.start);
  },
  (error) => {
    console.error(`[local-cloud] could not build the local cloud's bundles: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
