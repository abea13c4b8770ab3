/**
 * The docs resources: every page of the catalogue is listed as docs://<name> (text/markdown) and reads as
 * its file in docs/ (the stdio server's source), and the bundled source (the Lambda's) gives the same text.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DOC_PAGES } from '#clients/mcp/docs/catalogue';
import { bundledDocs } from '#clients/mcp/docs/bundled';
import { docsFromFiles, REPOSITORY_DOCS_DIR } from '#clients/mcp/docs/from-files';
import { connectedClient } from './fake-api';

describe('docs resources', () => {
  it('lists a docs:// resource per page, with a title, a description and text/markdown', async () => {
    const session = await connectedClient(() => ({ body: {} }), docsFromFiles());
    try {
      const { resources } = await session.client.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual(DOC_PAGES.map((page) => `docs://${page.name}`).sort());
      expect(resources.map((resource) => resource.uri)).toEqual(
        expect.arrayContaining([
          'docs://api',
          'docs://domains',
          'docs://webhooks',
          'docs://templates',
          'docs://suppressions',
          'docs://mcp',
        ]),
      );
      for (const resource of resources) {
        expect(resource.mimeType).toBe('text/markdown');
        expect(resource.description).toBeTruthy();
        expect(resource.title).toBeTruthy();
      }
      const read = await session.client.readResource({ uri: 'docs://domains' });
      expect(read.contents).toEqual([
        { uri: 'docs://domains', mimeType: 'text/markdown', text: readFileSync(path.join(REPOSITORY_DOCS_DIR, 'domains.md'), 'utf8') },
      ]);
    } finally {
      await session.close();
    }
  });

  it('an unknown docs:// resource is a protocol error, not a file read', async () => {
    const session = await connectedClient(() => ({ body: {} }), docsFromFiles());
    try {
      await expect(session.client.readResource({ uri: 'docs://../package' })).rejects.toThrow(/not found/i);
    } finally {
      await session.close();
    }
  });

  it("the bundled docs (the Lambda's) are the pages of docs/", async () => {
    for (const page of DOC_PAGES) {
      expect(await bundledDocs(page.name)).toBe(readFileSync(path.join(REPOSITORY_DOCS_DIR, `${page.name}.md`), 'utf8'));
    }
    await expect(bundledDocs('architecture')).rejects.toThrow('No bundled doc named architecture');
  });
});
