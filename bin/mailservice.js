#!/usr/bin/env node
// The CLI (docs/cli.md): clients/cli/main.ts, run through tsx (installed with the repo's packages).
require('tsx/cjs');
require('../clients/cli/main.ts');
