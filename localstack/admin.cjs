/**
 * `npm run admin`'s program: the operator CLI (./admin-main.ts) run from a bundle of its sources, built on first
 * use and again when a source changes (bin/run-bundled.js). Through tsx each run compiled and loaded some 300
 * files: about 1.6 s of CPU for `--help`, against about 0.3 s from the bundle (docs/local-cloud/bundles.md).
 * `npx tsx localstack/admin-main.ts` still runs it from the sources.
 */
'use strict';
require('../bin/run-bundled')('admin');
