/**
 * The layer boundaries of docs/architecture.md ("Layers"), and no import cycle between
 * the product's files, checked on the import statements of every TypeScript file (static and type
 * imports, `export ... from`, `import()` and `require()`; TypeScript's own pre-processor finds them, so
 * comments and strings are not imports). A failure lists each offending import as `file:line -> target`,
 * and each cycle as its files.
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
    target: fileName.startsWith('.')
      ? relative(ROOT, resolve(ROOT, dirname(file), fileName))
          .split(sep)
          .join('/')
      : aliasTarget(fileName),
  }));
}

/** The path aliases of tsconfig.json ("#shared/*" -> "shared/*"), the one place they are declared. */
const ALIASES: Record<string, string[]> = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths;

/** Repository-relative path an aliased specifier ("#shared/domain/ids") names, or null when it is no alias. */
function aliasTarget(specifier: string): string | null {
  for (const [pattern, [target]] of Object.entries(ALIASES)) {
    const prefix = pattern.replace(/\*$/, '');
    if (specifier.startsWith(prefix)) return `${target!.replace(/^\.\//, '').replace(/\*$/, '')}${specifier.slice(prefix.length)}`;
  }
  return null;
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
  /** Folders inside `from` the rule leaves out. */
  except?: string[];
  /** Folders they never import. */
  never?: string[];
  /**
   * The only folders of the product's code (shared/ and functions/) they import, besides their own
   * (`from`'s) files; packages are not restricted.
   */
  only?: string[];
}

/** The product's code an `only` rule restricts: what is outside it (packages, the other top folders) other rules judge. */
const PRODUCT_CODE = ['shared', 'functions'];

const RULES: Record<string, Rule> = {
  'functions/ and shared/ never import localstack/, infra/, bench/ or test/': {
    from: ['functions', 'shared'],
    never: ['localstack', 'infra', 'bench', 'test'],
  },
  // The API's groups sit on top of shared/: functions/api/<group>/ holds a group's operations, schemas and
  // handlers, functions/api/operations.ts the list of every group; shared/doors/openapi/ only the machinery
  // (the Operation type, the document builder, which is given the operations, the common schemas).
  "shared/ never imports functions/ (an API group's operations, schemas and handlers live in functions/api/<group>/)": {
    from: ['shared'],
    never: ['functions'],
  },
  // The layers of shared/, bottom up: lib, domain, config, ports, the store (shared/adapters/store), use
  // cases. The other adapters implement the ports, and no use case imports them; the doors call the use
  // cases; the services compose them all. Each layer imports only layers below it (docs/architecture.md,
  // "Layers").
  'shared/lib/ imports nothing else of shared/ (nor functions/)': {
    from: ['shared/lib'],
    only: [],
  },
  'shared/domain/ imports only shared/lib (of shared/ and functions/)': {
    from: ['shared/domain'],
    only: ['shared/lib'],
  },
  'shared/config/ imports only shared/lib and shared/domain (of shared/ and functions/)': {
    from: ['shared/config'],
    only: ['shared/lib', 'shared/domain'],
  },
  'shared/ports/ imports only shared/lib, shared/domain and shared/config: never the store or another adapter, a use case, a door or a service':
    {
      from: ['shared/ports'],
      only: ['shared/lib', 'shared/domain', 'shared/config'],
    },
  // The store reads the service's clock for the times it writes when given none (shared/adapters/clock.ts).
  'the store (shared/adapters/store/) imports only shared/lib, shared/domain and the service clock (shared/adapters/clock)': {
    from: ['shared/adapters/store'],
    only: ['shared/lib', 'shared/domain', 'shared/adapters/clock'],
  },
  'shared/usecases/ imports only shared/lib, shared/domain, shared/config, shared/ports and the store (shared/adapters/store): no other adapter, no door, no service, nothing of functions/':
    {
      from: ['shared/usecases'],
      only: ['shared/lib', 'shared/domain', 'shared/config', 'shared/ports', 'shared/adapters/store'],
    },
  // Keys, item layouts and stream images stay in the store: use cases get models, typed requests and named changes.
  'shared/usecases/ never imports shared/adapters/store/keys': {
    from: ['shared/usecases'],
    never: ['shared/adapters/store/keys'],
  },
  'the adapters other than the store (shared/adapters/*) import only shared/lib, shared/domain, shared/config, shared/ports and one another: never the store, a use case, a door or a service':
    {
      from: ['shared/adapters'],
      except: ['shared/adapters/store'],
      never: ['shared/adapters/store'],
      only: ['shared/lib', 'shared/domain', 'shared/config', 'shared/ports', 'shared/adapters'],
    },
  'shared/doors/ and shared/services/ never import functions/ (the functions call the doors, built from the services)': {
    from: ['shared/doors', 'shared/services'],
    never: ['functions'],
  },
  // docs/dashboard.md: everything the pages do goes through the API's use cases; no page reads the table.
  'the dashboard pages never import shared/adapters/store or shared/adapters/aws': {
    from: ['functions/api/dashboard/pages'],
    never: ['shared/adapters/store', 'shared/adapters/aws'],
  },
};

/** Every import breaking the rule, as `file:line -> target`. */
function violations(files: Map<string, Import[]>, rule: Rule): string[] {
  const found: string[] = [];
  const breaks = (target: string) =>
    (rule.never ?? []).some((folder) => within(target, folder)) ||
    (rule.only !== undefined &&
      PRODUCT_CODE.some((folder) => within(target, folder)) &&
      !rule.from.some((folder) => within(target, folder)) &&
      !rule.only.some((folder) => within(target, folder)));
  for (const [file, imports] of files) {
    if (!rule.from.some((folder) => within(file, folder)) || (rule.except ?? []).some((folder) => within(file, folder))) continue;
    for (const { line, target } of imports) {
      if (target !== null && breaks(target)) found.push(`${file}:${line} -> ${target}`);
    }
  }
  return found;
}

/** The imports between the given files, each resolved to the file it loads (`x.ts` or `x/index.ts`); packages left out. */
function moduleGraph(files: Map<string, Import[]>): Map<string, string[]> {
  const resolveFile = (target: string) => [`${target}.ts`, `${target}/index.ts`, target].find((candidate) => files.has(candidate));
  return new Map(
    [...files].map(([file, imports]) => [
      file,
      [...new Set(imports.flatMap(({ target }) => (target === null ? [] : (resolveFile(target) ?? []))))],
    ]),
  );
}

/**
 * The import cycles between files: each strongly connected component of more than one file (Tarjan's
 * algorithm), its files sorted. Type-only imports count: a cycle of types still ties the files together.
 */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** Whether one folder is the other or inside it. */
const nested = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/**
 * The imports between folders: a folder imports another when one of its own files imports one of the
 * other's. A folder and the folders inside it are one whole (a module and its parts): imports between them
 * are left out.
 */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = dirname(file);
    for (const target of targets) {
      const to = dirname(target);
      if (nested(from, to)) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from)!.add(to);
    }
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}

const FILES = new Map(sourceFiles().map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))]));
/** The code that ships or runs the product: every folder but the tests. */
const PRODUCT = ['functions', 'shared', 'localstack', 'infra', 'bench'];

describe('layer boundaries', () => {
  it.each(Object.entries(RULES))('%s', (title, rule) => {
    const found = violations(FILES, rule);
    if (found.length > 0) console.error(`layer boundary broken (${title}):\n${found.map((v) => `  ${v}`).join('\n')}`);
    expect(found).toEqual([]);
  });
});

describe('import cycles', () => {
  it('no file of the product imports itself through other files', () => {
    const product = new Map([...FILES].filter(([file]) => PRODUCT.some((folder) => within(file, folder))));
    const cycles = importCycles(moduleGraph(product));
    if (cycles.length > 0) console.error(`import cycles:\n${cycles.map((cycle) => `  ${cycle.join(' -> ')}`).join('\n')}`);
    expect(cycles).toEqual([]);
  });

  it('no folder of the product imports itself through other folders (folders inside one another aside)', () => {
    const product = new Map([...FILES].filter(([file]) => PRODUCT.some((folder) => within(file, folder))));
    const cycles = importCycles(folderGraph(moduleGraph(product)));
    if (cycles.length > 0) console.error(`folder import cycles:\n${cycles.map((cycle) => `  ${cycle.join(' <-> ')}`).join('\n')}`);
    expect(cycles).toEqual([]);
  });

  it('finds a cycle between folders through a third, and not between a folder and its parts', () => {
    const files = new Map([
      ['shared/a/one.ts', importsOf('shared/a/one.ts', "import { b } from '../b/two';\nimport { part } from './part/three';\n")],
      ['shared/a/part/three.ts', importsOf('shared/a/part/three.ts', "import { one } from '../one';\n")],
      ['shared/b/two.ts', importsOf('shared/b/two.ts', "import type { C } from '../c';\n")],
      ['shared/c/index.ts', importsOf('shared/c/index.ts', "export { one } from '../a/one';\n")],
    ]);
    expect(importCycles(folderGraph(moduleGraph(files)))).toEqual([['shared/a', 'shared/b', 'shared/c']]);
    files.set('shared/c/index.ts', []);
    expect(importCycles(folderGraph(moduleGraph(files)))).toEqual([]);
  });

  it('finds a cycle through several files, type imports and index files included, and nothing else', () => {
    const files = new Map([
      ['shared/a.ts', importsOf('shared/a.ts', "import { b } from './b';\nimport 'zod';\n")],
      ['shared/b.ts', importsOf('shared/b.ts', "import type { C } from './c';\n")],
      ['shared/c/index.ts', importsOf('shared/c/index.ts', "export { a } from '../a';\n")],
      ['shared/d.ts', importsOf('shared/d.ts', "import { a } from './a';\n")],
    ]);
    expect(importCycles(moduleGraph(files))).toEqual([['shared/a.ts', 'shared/b.ts', 'shared/c/index.ts']]);
    files.set('shared/c/index.ts', []);
    expect(importCycles(moduleGraph(files))).toEqual([]);
  });
});

describe('the import scanner', () => {
  it('sees the product code and its imports (the rules are not checked against nothing)', () => {
    expect([...FILES.keys()].filter((file) => within(file, 'shared')).length).toBeGreaterThan(50);
    expect(FILES.get('functions/workers/send-email/handler.ts')).toContainEqual(
      expect.objectContaining({ target: 'shared/doors/worker/for-each-record' }),
    );
    expect(FILES.get('localstack/admin-local.ts')).toContainEqual(expect.objectContaining({ target: 'localstack/cloud/stack/stack-file' }));
  });

  it('finds every import form with its line, aliased or relative, and nothing in comments or strings', () => {
    const source = [
      "import type { A } from '#infra/a';", // 1
      'import {', // 2
      '  b,', // 3
      "} from '../../localstack/b';", // 4
      "export * from './c';", // 5
      "// import x from '../../test/commented';", // 6
      "const d = () => import('../../bench/d');", // 7
      "const e = require('../store/e');", // 8
      "import 'zod';", // 9
      'const s = "import x from \'../../test/string\'";', // 10
    ].join('\n');
    expect(importsOf('shared/domain/x.ts', source)).toEqual([
      { line: 1, specifier: '#infra/a', target: 'infra/a' },
      { line: 4, specifier: '../../localstack/b', target: 'localstack/b' },
      { line: 5, specifier: './c', target: 'shared/domain/c' },
      { line: 7, specifier: '../../bench/d', target: 'bench/d' },
      { line: 8, specifier: '../store/e', target: 'shared/store/e' },
      { line: 9, specifier: 'zod', target: null },
    ]);
  });

  it('reports an offending import as file:line -> target', () => {
    const files = new Map([
      ['shared/domain/x.ts', importsOf('shared/domain/x.ts', "import { a } from './ok';\nimport { t } from '../adapters/store/table';\n")],
      ['shared/adapters/store/y.ts', importsOf('shared/adapters/store/y.ts', "import { t } from './table';\n")],
    ]);
    expect(violations(files, RULES['shared/domain/ imports only shared/lib (of shared/ and functions/)']!)).toEqual([
      'shared/domain/x.ts:2 -> shared/adapters/store/table',
    ]);
  });

  it('holds use cases to the store among the adapters, the store to what it needs, and ports off the store', () => {
    const files = new Map([
      [
        'shared/usecases/a/x.ts',
        importsOf(
          'shared/usecases/a/x.ts',
          "import { r } from '../../adapters/store/emails';\nimport { s } from '../../adapters/aws/ses-mailer';\nimport { m } from '../../ports/mail';\nimport 'zod';\n",
        ),
      ],
      [
        'shared/adapters/store/y.ts',
        importsOf(
          'shared/adapters/store/y.ts',
          "import { c } from '../clock';\nimport { d } from '../aws/dynamo-client';\nimport { t } from './table';\n",
        ),
      ],
      [
        'shared/adapters/aws/z.ts',
        importsOf('shared/adapters/aws/z.ts', "import { e } from '../store/emails';\nimport { f } from './client-factories';\n"),
      ],
      ['shared/ports/w.ts', importsOf('shared/ports/w.ts', "import type { E } from '../adapters/store/emails';\n")],
    ]);
    const rule = (start: string) => RULES[Object.keys(RULES).find((title) => title.startsWith(start))!]!;
    expect(violations(files, rule('shared/usecases/ imports only'))).toEqual([
      'shared/usecases/a/x.ts:2 -> shared/adapters/aws/ses-mailer',
    ]);
    expect(violations(files, rule('the store'))).toEqual(['shared/adapters/store/y.ts:2 -> shared/adapters/aws/dynamo-client']);
    expect(violations(files, rule('the adapters other than the store'))).toEqual([
      'shared/adapters/aws/z.ts:1 -> shared/adapters/store/emails',
    ]);
    expect(violations(files, rule('shared/ports/'))).toEqual(['shared/ports/w.ts:1 -> shared/adapters/store/emails']);
  });
});

describe('path aliases', () => {
  /** A relative import that leaves its top-level folder, or climbs three folders, into a folder with an alias. */
  const unaliased = (file: string, { specifier, target }: Import) =>
    specifier.startsWith('.') &&
    target !== null &&
    aliasTarget(`#${target}`) === target &&
    (target.split('/')[0] !== file.split('/')[0] || specifier.startsWith('../../../'));

  it('an import into another top-level folder, or three folders up, names its alias ("#shared/...")', () => {
    const found = [...FILES].flatMap(([file, imports]) =>
      imports.filter((i) => unaliased(file, i)).map((i) => `${file}:${i.line} '${i.specifier}' (write '#${i.target}')`),
    );
    expect(found).toEqual([]);
    expect(FILES.get('functions/api/reference/app.ts')).toContainEqual(expect.objectContaining({ specifier: '#docs/openapi.json' }));
  });

  it('flags the imports the rule names, and keeps near relative ones', () => {
    const imports = importsOf(
      'test/unit/x/y.test.ts',
      "import { a } from '../../../shared/a';\nimport { b } from './b';\nimport { c } from '../../support/c';\nimport 'bin/run';\n",
    );
    expect(imports.filter((i) => unaliased('test/unit/x/y.test.ts', i)).map((i) => i.specifier)).toEqual(['../../../shared/a']);
    expect(unaliased('shared/x.ts', importsOf('shared/x.ts', "import { t } from '../test/t';\n")[0]!)).toBe(true);
  });

  it('Jest maps exactly the aliases tsconfig.json declares', () => {
    const folders = Object.keys(ALIASES).map((pattern) => pattern.replace(/^#|\/\*$/g, ''));
    const config = require('../../jest.config.js') as { projects: { moduleNameMapper: Record<string, string> }[] };
    for (const project of config.projects) {
      const mapper = Object.entries(project.moduleNameMapper).find(([, to]) => to === '<rootDir>/$1/$2');
      expect(mapper?.[0]).toBe(`^#(${folders.join('|')})/(.*)$`);
    }
  });
});

describe('the docs', () => {
  it('docs/architecture.md states every layer rule of this test, word for word', () => {
    const flat = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ');
    const docs = flat(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));
    expect(Object.keys(RULES).length).toBeGreaterThan(10);
    expect(Object.keys(RULES).filter((rule) => !docs.includes(flat(rule)))).toEqual([]);
  });
});
