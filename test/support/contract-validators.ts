/**
 * The contract check's validators compiled once per version of docs/openapi.json, not in every test
 * file: ajv's standalone code (https://ajv.js.org/standalone.html) of every JSON answer schema
 * (./openapi-contract.ts, `answerSchemas`), written under node_modules/.cache/ with a hash of the
 * document and of the code that generates it in its name, and required by each file. Compiling them in
 * each of the hundred integration files took about a third of a second of CPU per file; the integration
 * tests' global setup writes the module before any file starts, and a file that finds none writes it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import type { OpenApiDocument } from '#shared/doors/openapi/document';
import { answerSchemas, ContractChecker, documentAjv } from './openapi-contract';

const ROOT = join(__dirname, '..', '..');
const DOCUMENT_FILE = join(ROOT, 'docs', 'openapi.json');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'mailservice');

/**
 * What the generated code depends on besides the document: the checker's schema extraction and ajv
 * options (./openapi-contract.ts) and the versions of ajv and ajv-formats. A change to any of them
 * writes a new module instead of reusing one made by the old code.
 */
const GENERATOR_INPUTS = [
  join(__dirname, 'openapi-contract.ts'),
  join(ROOT, 'node_modules', 'ajv', 'package.json'),
  join(ROOT, 'node_modules', 'ajv-formats', 'package.json'),
];

/** The module of the document's validators (written when missing): its path. */
export function validatorsModule(text: string = readFileSync(DOCUMENT_FILE, 'utf8')): string {
  const hash = createHash('sha256').update(text);
  for (const input of GENERATOR_INPUTS) hash.update('\0').update(readFileSync(input));
  const file = join(CACHE_DIR, `contract-validators-${hash.digest('hex').slice(0, 16)}.js`);
  if (existsSync(file)) return file;
  const document = JSON.parse(text) as OpenApiDocument;
  const ajv = documentAjv(document, { source: true });
  const ids: Record<string, string> = {};
  [...answerSchemas(document)].forEach(([key, schema], index) => {
    ids[key] = `urn:mailservice:answer:${index}`;
    ajv.addSchema(schema, ids[key]);
  });
  mkdirSync(CACHE_DIR, { recursive: true });
  // Written aside and renamed: files starting together never read a half-written module.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, standaloneCode(ajv, ids));
  renameSync(partial, file);
  return file;
}

let shared: ContractChecker | undefined;
/**
 * One checker per test file, of docs/openapi.json (what `npm run openapi` writes; a unit test fails when
 * it is not what the code would write), with its validators compiled beforehand. Read rather than built
 * from the Zod schemas, which took another quarter of a second of CPU per file.
 */
export function contractChecker(): ContractChecker {
  if (!shared) {
    const text = readFileSync(DOCUMENT_FILE, 'utf8');
    const compiled = require(validatorsModule(text)) as Record<string, ValidateFunction>;
    shared = new ContractChecker(JSON.parse(text) as OpenApiDocument, compiled);
  }
  return shared;
}
