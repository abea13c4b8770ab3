/**
 * The layer boundaries of docs/architecture.md ("Code layout and rules"), checked on the import
 * statements of every TypeScript file (static and type imports, `export ... from`, `import()` and
 * `require()`; TypeScript's own pre-processor finds them, so comments and strings are not imports). A
 * failure lists each offending import as `file:line -> target`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const SKIPPED_DIRS = new Set(['node_modules', 'cdk.out', 'dist', 'coverage']);
const SOURCE = /\.(ts|mts|cts)$/;

interface Import {
  /** Line of the specifier, 1-based. */
  line: number;
  /** The specifier as written. */
  specifier: string;
  /** Repository-relative path of the imported module (no extension), or null for a package. */
  target: string | null;
}

/** The imports of one source file (`file` is repository-relative, with forward slashes). */
function importsOf(file: string, source: string): Import[] {
  return ts.preProcessFile(source, true, true).importedFiles.map(({ fileName, pos }) => ({
    line: source.slice(0, pos).split('\n').length,
    specifier: fileName,
    target: fileName.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), fileName)).split(sep).join('/') : null,
  }));
}

function sourceFiles(dir = ''): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

interface Rule {
  /** Files the rule applies to (folders). */
  from: string[];
  /** Folders they never import. */
  never: string[];
}

const RULES: Record<string, Rule> = {
  'functions/ and shared/ never import localstack/, infra/, bench/ or test/': {
    from: ['functions', 'shared'],
    never: ['localstack', 'infra', 'bench', 'test'],
  },
  'shared/domain/ never imports shared/store, shared/aws, shared/http or shared/usecases': {
    from: ['shared/domain'],
    never: ['shared/store', 'shared/aws', 'shared/http', 'shared/usecases'],
  },
  'shared/usecases/ never imports shared/http or functions/': {
    from: ['shared/usecases'],
    never: ['shared/http', 'functions'],
  },
  'shared/store/ never imports shared/usecases or shared/http': {
    from: ['shared/store'],
    never: ['shared/usecases', 'shared/http'],
  },
  // docs/dashboard.md: everything the pages do goes through the API's use cases; no page reads the table.
  'the dashboard pages never import shared/store or shared/aws': {
    from: ['functions/api/dashboard/pages'],
    never: ['shared/store', 'shared/aws'],
  },
};

/** Every import breaking the rule, as `file:line -> target`. */
function violations(files: Map<string, Import[]>, rule: Rule): string[] {
  const found: string[] = [];
  for (const [file, imports] of files) {
    if (!rule.from.some((folder) => within(file, folder))) continue;
    for (const { line, target } of imports) {
      if (target !== null && rule.never.some((folder) => within(target, folder))) found.push(`${file}:${line} -> ${target}`);
    }
  }
  return found;
}

const FILES = new Map(sourceFiles().map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))]));

describe('layer boundaries', () => {
  it.each(Object.entries(RULES))('%s', (_title, rule) => {
    const found = violations(FILES, rule);
    if (found.length > 0) console.error(`layer boundary broken:\n${found.map((v) => `  ${v}`).join('\n')}`);
    expect(found).toEqual([]);
  });
});

describe('the import scanner', () => {
  it('sees the product code and its imports (the rules are not checked against nothing)', () => {
    expect([...FILES.keys()].filter((file) => within(file, 'shared')).length).toBeGreaterThan(50);
    expect(FILES.get('functions/workers/send-email/handler.ts')).toContainEqual(expect.objectContaining({ target: 'shared/worker/for-each-record' }));
    expect(FILES.get('localstack/admin-local.ts')).toContainEqual(expect.objectContaining({ target: 'localstack/cloud/stack-file' }));
  });

  it('finds every import form with its line, and nothing in comments or strings', () => {
    const source = [
      "import type { A } from '../../infra/a';", // 1
      'import {', // 2
      '  b,', // 3
      "} from '../../localstack/b';", // 4
      "export * from './c';", // 5
      "// import x from '../../test/commented';", // 6
      "const d = () => import('../../bench/d');", // 7
      "const e = require('../store/e');", // 8
      "import 'zod';", // 9
      "const s = \"import x from '../../test/string'\";", // 10
    ].join('\n');
    expect(importsOf('shared/domain/x.ts', source)).toEqual([
      { line: 1, specifier: '../../infra/a', target: 'infra/a' },
      { line: 4, specifier: '../../localstack/b', target: 'localstack/b' },
      { line: 5, specifier: './c', target: 'shared/domain/c' },
      { line: 7, specifier: '../../bench/d', target: 'bench/d' },
      { line: 8, specifier: '../store/e', target: 'shared/store/e' },
      { line: 9, specifier: 'zod', target: null },
    ]);
  });

  it('reports an offending import as file:line -> target', () => {
    const files = new Map([
      ['shared/domain/x.ts', importsOf('shared/domain/x.ts', "import { a } from './ok';\nimport { t } from '../store/table';\n")],
      ['shared/store/y.ts', importsOf('shared/store/y.ts', "import { t } from './table';\n")],
    ]);
    expect(violations(files, RULES['shared/domain/ never imports shared/store, shared/aws, shared/http or shared/usecases']!)).toEqual(['shared/domain/x.ts:2 -> shared/store/table']);
  });
});
