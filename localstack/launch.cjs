/**
 * `npm start`'s program: the local cloud (./start.ts) run from its bundles (./bundles.cjs), built on first
 * use and again when a source changes, in this process (npm's signals reach the stack: ./start.ts). Loading
 * them instead of compiling some 900 files through tsx takes about 3 s of CPU less a start
 * (docs/local-cloud/bundles.md). `node --import tsx localstack/start.ts` still runs it from the sources.
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
