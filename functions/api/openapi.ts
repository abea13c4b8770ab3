/**
 * The OpenAPI document of every group (./operations.ts, built by shared/doors/openapi/document.ts), and
 * `npm run openapi`: writes it to docs/openapi.json, so changes to the API show in review
 * (test/unit/openapi/document.test.ts fails while the file is not what this writes).
 * `--check` only compares, exiting 1 when the file is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument, type OpenApiDocument } from '#shared/doors/openapi/document';
import { API } from './operations';

export const OPENAPI_FILE = resolve(__dirname, '..', '..', 'docs', 'openapi.json');

/** The document of the HTTP API: every group's operations, in the reference's order. */
export function buildApiDocument(version?: string): OpenApiDocument {
  return buildOpenApiDocument(API, version);
}

/** The file's text: the document, indented by two spaces, with a final newline. */
export function openApiText(): string {
  return `${JSON.stringify(buildApiDocument(), null, 2)}\n`;
}

function main(): void {
  const text = openApiText();
  let current = '';
  try {
    current = readFileSync(OPENAPI_FILE, 'utf8');
  } catch {
    // First run: no file yet.
  }
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${OPENAPI_FILE} is out of date: run npm run openapi`);
      process.exit(1);
    }
    console.log(`${OPENAPI_FILE} is up to date`);
    return;
  }
  if (current === text) {
    console.log(`${OPENAPI_FILE} unchanged`);
    return;
  }
  writeFileSync(OPENAPI_FILE, text);
  const document = JSON.parse(text) as { paths: Record<string, object> };
  const operations = Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0);
  console.log(`wrote ${OPENAPI_FILE}: ${operations} operations, ${Buffer.byteLength(text)} bytes`);
}

if (require.main === module) main();
