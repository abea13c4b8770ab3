#!/usr/bin/env node
// The MCP server over stdio (docs/mcp.md): clients/mcp/stdio.ts, run from a bundle of it built on first use (bin/run-bundled.js).
require('./run-bundled')('mcp');
