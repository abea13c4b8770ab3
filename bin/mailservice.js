#!/usr/bin/env node
// The CLI (docs/cli.md): clients/cli/main.ts, run from a bundle of it built on first use (bin/run-bundled.js).
require('./run-bundled')('cli');
