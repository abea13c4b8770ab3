#!/usr/bin/env node
// The MCP server over stdio (docs/mcp.md): clients/mcp/stdio.ts, run through tsx (installed with the repo's packages).
require('tsx/cjs');
require('../clients/mcp/stdio.ts');
