/**
 * The local cloud's bundles (bin/run-bundled.js): one esbuild build of the main thread's program (./start.ts),
 * the workers thread's (./cloud/workers/workers-thread.ts) and the relay task's (./cloud/relay-task/relay-task-runtime.ts), each
 * with every function's entry in a table (./cloud/lambda/bundled-functions.ts) evaluated on first use. ./launch.cjs
 * runs them (`npm start`); docs/local-cloud/bundles.md.
 */
'use strict';
const { readdirSync } = require('node:fs');
const { join, relative } = require('node:path');
const { bundles, ROOT } = require('../bin/run-bundled');

/** Every function's entry under functions/ (Lambda handlers, the relay's main), relative to the root. */
function functionEntries(dir = join(ROOT, 'functions')) {
  const entries = [];
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) entries.push(...functionEntries(path));
    else if (item.name === 'handler.ts' || item.name === 'main.ts') entries.push(relative(ROOT, path).split('\\').join('/'));
  }
  return entries.sort();
}

/** ./cloud/lambda/bundled-functions.ts as the bundles hold it: the table of every function's module. */
const functionTable = {
  name: 'function-table',
  setup(build) {
    build.onLoad({ filter: /[\\/]localstack[\\/]cloud[\\/]lambda[\\/]bundled-functions\.ts$/ }, () => {
      const rows = functionEntries().map((entry) => `  ${JSON.stringify(entry)}: () => require(${JSON.stringify(`./${entry}`)}),`);
      const contents = `import { relative, resolve, sep } from 'node:path';
const ROOT = ${JSON.stringify(ROOT)};
const table = {\n${rows.join('\n')}\n};
let tsx;
export function loadFunctionModule(entry) {
  const file = resolve(ROOT, entry);
  const load = table[relative(ROOT, file).split(sep).join('/')];
  if (load) return load();
  if (!tsx) {
    tsx = require('tsx/cjs/api');
    tsx.register();
  }
  return require(file);
}
`;
      return { contents, loader: 'js', resolveDir: ROOT };
    });
  },
};

/** The bundles' files by program (start, workers, relay), built first when a source changed. */
function localCloudBundles() {
  return bundles(
    'local-cloud',
    {
      start: 'localstack/start.ts',
      workers: 'localstack/cloud/workers/workers-thread.ts',
      relay: 'localstack/cloud/relay-task/relay-task-runtime.ts',
    },
    { sourcemap: true, plugins: [functionTable] },
  );
}

module.exports = { functionEntries, functionTable, localCloudBundles };
