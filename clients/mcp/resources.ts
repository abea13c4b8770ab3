/** The docs as MCP resources: `docs://<name>`, text/markdown, one per page of ./docs/catalogue.ts, read on each request. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DOC_PAGES, type DocsSource } from './docs/catalogue';

export const DOCS_MIME_TYPE = 'text/markdown';

export function docsUri(name: string): string {
  return `docs://${name}`;
}

export function registerDocsResources(server: McpServer, docs: DocsSource): void {
  for (const page of DOC_PAGES) {
    server.registerResource(
      page.name,
      docsUri(page.name),
      { title: page.title, description: page.description, mimeType: DOCS_MIME_TYPE },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: DOCS_MIME_TYPE, text: await docs(page.name) }],
      }),
    );
  }
}
