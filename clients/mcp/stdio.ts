/**
 * The MCP server over stdio (docs/mcp.md), run by bin/mailservice-mcp.js (`npx mailservice-mcp`,
 * `npm run mcp`): config from the environment (./config.ts), docs read from the repository. stdout carries
 * the protocol only; everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApiClient } from '../api/client';
import { stdioConfigFromEnv } from './config';
import { docsFromFiles } from './docs/from-files';
import { createMcpServer, SERVER_INFO } from './server';

async function main(): Promise<void> {
  const result = stdioConfigFromEnv(process.env);
  if (!result.ok) {
    process.stderr.write(`${result.message}\n`);
    process.exit(1);
  }
  const { apiKey, baseUrl } = result.config;
  const api = createApiClient({ baseUrl, apiKey, userAgent: `mailservice-mcp/${SERVER_INFO.version}` });
  const server = createMcpServer({ api, docs: docsFromFiles() });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`mailservice-mcp: serving MCP on stdio, API ${api.baseUrl}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`mailservice-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
