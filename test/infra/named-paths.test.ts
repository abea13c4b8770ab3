/**
 * Every path the docs and the code comments name exists (test/support/named-paths.ts reads them): a file
 * moved or removed leaves no comment or page pointing at it. A failure lists each `file:line` and the
 * missing path; fix the comment (or the page) to name where the thing is now.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { filesUnder, pathExists, pathsNamedInComments, pathsNamedInPage, type NamedPath } from '../support/named-paths';

const ROOT = resolve(__dirname, '..', '..');
const CODE_FOLDERS = ['shared', 'functions', 'infra', 'localstack', 'clients', 'bin', 'bench', 'test'];
const SOURCE = (name: string) => /\.(ts|tsx|js|cjs|mjs)$/.test(name) && !name.endsWith('.generated.ts') && !name.endsWith('.d.ts');

const missing = (paths: NamedPath[]) =>
  paths
    .filter((named) => !pathExists(ROOT, named.target))
    .map((named) => `${named.file}:${named.line}: ${named.path} (no ${named.target})`);

test('every path a code comment names exists', () => {
  const files = CODE_FOLDERS.flatMap((folder) => filesUnder(ROOT, folder, SOURCE));
  expect(files.length).toBeGreaterThan(1000);
  const named = files.flatMap((file) => pathsNamedInComments(ROOT, file));
  // The check reads paths at all: comments name well over a thousand.
  expect(named.length).toBeGreaterThan(1000);
  expect(missing(named)).toEqual([]);
});

test('every path and relative link the docs name exists', () => {
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    'CHANGELOG.md',
    ...filesUnder(ROOT, 'docs', (name) => name.endsWith('.md')),
    // The folders' own pages (localstack/cloud/*/README.md: what each folder models, where that is documented).
    ...filesUnder(ROOT, 'localstack', (name) => name === 'README.md'),
  ];
  const named = pages.flatMap((page) => pathsNamedInPage(ROOT, page));
  expect(named.length).toBeGreaterThan(500);
  expect(missing(named)).toEqual([]);
});

test('the reader finds stale paths, relative ones included, and leaves patterns, images and strings alone', () => {
  const root = mkdtempSync(join(tmpdir(), 'named-paths-'));
  try {
    mkdirSync(join(root, 'shared', 'lib'), { recursive: true });
    writeFileSync(join(root, 'shared', 'lib', 'log.ts'), '');
    const source = [
      "const url = 'http://a/b // shared/nope.ts';",
      '/** See ./gone.ts and shared/lib/log.ts (./log.ts), functions/api/<group>/app.ts, shared/lib/moved.ts. */',
      'export const x = 1; // ../also-gone.ts',
      '',
    ].join('\n');
    writeFileSync(join(root, 'shared', 'lib', 'f.ts'), source);
    const named = pathsNamedInComments(root, 'shared/lib/f.ts');
    expect(named.map((path) => [path.line, path.path, pathExists(root, path.target)])).toEqual([
      [2, './gone.ts', false],
      [2, 'shared/lib/log.ts', true],
      [2, './log.ts', true],
      [2, 'shared/lib/moved.ts', false],
      [3, '../also-gone.ts', false],
    ]);
    writeFileSync(
      join(root, 'page.md'),
      'Run `localstack/localstack:4.4.0`; see [the log](shared/lib/log.ts) and [gone](shared/gone.md#x), [web](https://a.example/b).\n',
    );
    expect(pathsNamedInPage(root, 'page.md').map((path) => [path.path, pathExists(root, path.target)])).toEqual([
      ['shared/lib/log.ts', true],
      ['shared/gone.md', false],
      ['shared/lib/log.ts', true],
      ['shared/gone.md', false],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
