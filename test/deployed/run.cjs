/**
 * `npm run test:deployed`: the deployed smoke suite (./main.ts) run from a bundle of its sources, built on first
 * use and again when a source changes (bin/run-bundled.js), as the CLI is: about 1 s of CPU less a run than
 * compiling it through tsx. `npx tsx test/deployed/main.ts` still runs it from the sources.
 */
'use strict';
require('../../bin/run-bundled')('test-deployed', 'test/deployed/main.ts');
