/** The docs resources read from the repository's docs/ at runtime: what the stdio server serves (it runs from a clone). */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { DocsSource } from './catalogue';

export const REPOSITORY_DOCS_DIR = path.resolve(__dirname, '../../../docs');

export function docsFromFiles(dir: string = REPOSITORY_DOCS_DIR): DocsSource {
  return (name) => readFile(path.join(dir, `${path.basename(name)}.md`), 'utf8');
}
