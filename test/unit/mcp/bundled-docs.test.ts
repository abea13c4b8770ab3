/**
 * clients/mcp/docs/bundled.generated.ts is current: written from docs/ as write-bundled.ts writes it. When
 * this fails, a page the MCP server serves was edited: run `npx tsx clients/mcp/docs/write-bundled.ts`.
 */
import { readFileSync } from 'node:fs';
import { BUNDLED_DOCS_FILE, bundledDocsSource, packDoc } from '#clients/mcp/docs/write-bundled';
import { unpackDoc } from '#clients/mcp/docs/bundled';

test('the bundled docs module is up to date (else: npx tsx clients/mcp/docs/write-bundled.ts)', () => {
  expect(readFileSync(BUNDLED_DOCS_FILE, 'utf8') === bundledDocsSource()).toBe(true);
});

test('a packed page unpacks to the same text, multi-byte characters included', () => {
  const text = '# Title\n\nnaïve — “quoted” 日本語 ✓\n'.repeat(50);
  expect(unpackDoc(packDoc(text))).toBe(text);
  expect(packDoc(text).length).toBeLessThan(Buffer.byteLength(text) / 2);
});
